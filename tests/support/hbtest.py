# SPDX-License-Identifier: Apache-2.0
"""What the python test scripts share. A check here holds under
`python3 -O` too, which drops assert statements: a test that only asserts
would pass there whatever happens.

Scripts import it with tests/support on sys.path:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "../../support"))
    from hbtest import expect  # noqa: E402
"""


def expect(cond, what):
    """Fail the test, with AssertionError(what), unless cond holds."""
    if not cond:
        raise AssertionError(what)
