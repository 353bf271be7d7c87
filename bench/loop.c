/* loop.c: doubles, printed with %.17g (whole numbers as ints: say so, "precision") */
#include <stdio.h>
double X[1000][65], w[64];  /* at most 1000 examples of 64 features, the label last */
int d, n, epoch, mistakes = 1, traced;
void print_w(void) { for (int k = 0; k < d; k++) printf("%s%.17g", k ? ", " : "", w[k]); }
int main(int argc, char **argv) {
  FILE *f = fopen(argv[1], "r");
  for (int c; (c = getc(f)) != '\n';) d += c == ',';  /* the header: d features, then the label */
  for (; n < 1000 && fscanf(f, "%lf,", &X[n][0]) == 1; n++)
    for (int k = 1; k <= d; k++) fscanf(f, "%lf,", &X[n][k]);
  printf("{\"precision\": \"binary64\", \"trace\": [");
  while (mistakes && epoch < 1000) {
    epoch++, mistakes = 0;
    for (int i = 0; i < n; i++) {
      double s = 0, y = X[i][d];
      for (int k = 0; k < d; k++) s += w[k] * X[i][k];
      if ((s >= 0 ? 1 : -1) != y) {
        for (int k = 0; k < d; k++) w[k] += y * X[i][k];
        printf("%s{\"epoch\": %d, \"index\": %d, \"score\": %.17g, \"weights\": [", traced++ ? ", " : "", epoch, i, s);
        print_w(), printf("]}"), mistakes++;
      }
    }
  }
  printf("], \"weights\": ["), print_w();
  printf("], \"epochs\": %d, \"converged\": %s}\n", epoch, mistakes ? "false" : "true");
}
