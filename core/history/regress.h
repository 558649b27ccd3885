/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Regressions over time: the change points of every series of a history
 * document (docs/history.md) and a verdict on its newest point.
 * Pure work on the document, no I/O.
 */
#ifndef HB_CORE_HISTORY_REGRESS_H
#define HB_CORE_HISTORY_REGRESS_H

#include <jansson.h>
#include <stddef.h>

#include "history/changepoint.h"

/* The defaults a zeroed field of struct regress_opts takes. */
#define REGRESS_ALPHA	   CHANGEPOINT_ALPHA
#define REGRESS_MIN_CHANGE CHANGEPOINT_MIN_CHANGE
#define REGRESS_WINDOW	   20
#define REGRESS_Z	   4.0

/*
 * Options of the detector; zeroed fields take the defaults above (and the
 * search's, changepoint.h: PELT, CHANGEPOINT_PENALTY).
 */
struct regress_opts {
	double alpha;			/* significance of a change point */
	double min_change;		/* minimum magnitude, fraction */
	enum changepoint_method method; /* how the segments are searched */
	double penalty;	 /* price of a cut, in log(n) variances */
	unsigned window; /* points the newest run is judged against */
	double z;	 /* robust z beyond which the newest is a change */
};

/*
 * Fill every series' "changes" (each with state "new") and "newest" in doc,
 * in place, replacing what was there. A change is a step (kind
 * "regression" or "improvement") or a gradual drift over [index, end)
 * (kind "drift", its "direction" "regression" or "improvement"). A series
 * with a point flagged starved is searched by its per-CPU-second figures
 * ("figure": "cpu") when every point has one; otherwise a step with a
 * starved point within the fewest points of a segment on either side is
 * of kind "inconclusive", never a regression by the wall figure alone.
 * A series is cut where its points' context changes: no change point
 * spans a cut, and a step at a cut is reported with "context_change":
 * true. The newest point is judged against
 * at most o->window points before it, since the last change point or cut.
 * A point without a finite "median" is left out of the judgement and
 * listed in its series' "skipped" ({"index", "run", "reason"}); the
 * others are judged. o may be NULL (all defaults). Returns 0 or -ENOMEM;
 * the message goes to err.
 */
int history_regressions(json_t *doc, const struct regress_opts *o, char *err,
			size_t errlen);

#endif
