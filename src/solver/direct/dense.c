/* Cholesky of a tree point's Schur complement S = J K^-1 J^T + a (solver/direct/dense.h): n
 * is the point's pins and children, so a few rows; no pivoting, S being definite save for
 * redundant links, which the pivot floor damps. */
#include "solver/direct/dense.h"

#include <math.h>

#define PIVOT_FLOOR 1e-13 /* of S's diagonal: redundant links at one point (three pins in 2D) */

void direct_dense_solve(double *s, int n, double *b, int nrhs)
{
    for (int k = 0; k < n; k++) {
        double piv = s[k * n + k];
        for (int j = 0; j < k; j++)
            piv -= s[k * n + j] * s[k * n + j];
        const double floor = PIVOT_FLOOR * s[k * n + k];
        piv = sqrt(piv > floor ? piv : floor);
        s[k * n + k] = piv;
        for (int i = k + 1; i < n; i++) {
            double v = s[i * n + k];
            for (int j = 0; j < k; j++)
                v -= s[i * n + j] * s[k * n + j];
            s[i * n + k] = v / piv;
        }
    }
    for (int r = 0; r < nrhs; r++) {
        for (int i = 0; i < n; i++) {
            double v = b[i * nrhs + r];
            for (int j = 0; j < i; j++)
                v -= s[i * n + j] * b[j * nrhs + r];
            b[i * nrhs + r] = v / s[i * n + i];
        }
        for (int i = n; i-- > 0;) {
            double v = b[i * nrhs + r];
            for (int j = i + 1; j < n; j++)
                v -= s[j * n + i] * b[j * nrhs + r];
            b[i * nrhs + r] = v / s[i * n + i];
        }
    }
}
