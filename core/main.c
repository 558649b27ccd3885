/* hostbench entry point (command dispatch arrives with the runner). */
#include <stdio.h>

int main(void)
{
	fputs("hostbench: not built yet\n", stderr);
	return 2;
}
