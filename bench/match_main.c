/* PLACEHOLDER: replaced by the match runner. */
int main(void) { return 0; }
