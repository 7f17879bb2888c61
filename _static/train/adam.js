// AdamW as torch.optim.AdamW runs it on the CPU (one tensor at a time), in float64:
//   m ← m + (1 − β1)(g − m);  v ← β2 v + (1 − β2) g g;
//   θ ← θ(1 − lr λ) − (lr / (1 − β1ᵗ)) m / (√v / √(1 − β2ᵗ) + ε).
// β1ᵗ and β2ᵗ are running products: the ** operator is not pinned to the last bit and engines differ, while
// products are, so every engine (and compute/training/walkthrough_exact.py) takes the same steps.
export class AdamW {
  constructor(size, { lr, betas, eps, weight_decay: decay }) {
    this.lr = lr;
    [this.beta1, this.beta2] = betas;
    this.eps = eps;
    this.decay = decay;
    this.m = new Float64Array(size);
    this.v = new Float64Array(size);
    this.beta1t = 1;                 // β1ᵗ and β2ᵗ after t steps
    this.beta2t = 1;
  }

  step(params, grads) {
    this.beta1t *= this.beta1;
    this.beta2t *= this.beta2;
    const { lr, beta1, beta2, eps, decay, m, v } = this;
    const w1 = 1 - beta1, w2 = 1 - beta2, keep = 1 - lr * decay;
    const stepSize = lr / (1 - this.beta1t), root2 = Math.sqrt(1 - this.beta2t);
    for (let i = 0; i < params.length; i++) {
      const g = grads[i];
      params[i] *= keep;
      m[i] = m[i] + w1 * (g - m[i]);
      v[i] = v[i] * beta2 + w2 * g * g;
      params[i] = params[i] + (-stepSize * m[i]) / (Math.sqrt(v[i]) / root2 + eps);
    }
  }
}
