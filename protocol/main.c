/* PLACEHOLDER: replaced by the UGI front end. */
#include "game.h"
int main(void) { return 0; }
