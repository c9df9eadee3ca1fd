/* main.c - placeholder until the host is written */
int main(void) { return 0; }
