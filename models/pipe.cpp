#include "models/pipe.h"

namespace dctwin {

double pipeSegmentsRhs(const Fluid& f, double m, double M_seg, double UA_seg, double T_amb,
                       double T_in, const double* T, double* dTdt, int n) {
  double loss = 0.0;
  double h_up = f.h(T_in);
  for (int i = 0; i < n; ++i) {
    double h_i = f.h(T[i]);
    double q_loss = UA_seg * (T[i] - T_amb);
    loss += q_loss;
    dTdt[i] = (m * (h_up - h_i) - q_loss) / (M_seg * f.cp(T[i]));
    h_up = h_i;
  }
  return loss;
}

}  // namespace dctwin
