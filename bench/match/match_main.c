/* build/match: the match runner (bench/match/match.c, docs/match.md). */
#include "match.h"

int main(int argc, char **argv)
{
    return match_main(argc, argv);
}
