// exp(x) as fdlibm's e_exp.c computes it, in plain double arithmetic.
//
// Math.exp is not required to be correctly rounded, and engines differ in its last bit. Training is chaotic
// enough that one bit grows into a different run within a few hundred steps, so the trainer uses this
// function instead: the same bits in every engine, and the same bits as compute/training/fdlibm.py, which
// vectorises the same steps for compute's exact float64 run (compute/training/walkthrough_exact.py).
//
// The steps: x = k ln2 + r with |r| ≤ ln2 / 2 (ln2 split into a high part whose products with k are exact
// and a low part); exp(r) from a degree-5 rational approximation; then the result times 2^k.

const HALF = [0.5, -0.5];
const LN2_HI = [6.93147180369123816490e-01, -6.93147180369123816490e-01];
const LN2_LO = [1.90821492927058770002e-10, -1.90821492927058770002e-10];
const INV_LN2 = 1.44269504088896338700e+00;
const P1 = 1.66666666666666019037e-01, P2 = -2.77777777770155933842e-03, P3 = 6.61375632143793436117e-05;
const P4 = -1.65339022054652515390e-06, P5 = 4.13813679705723846039e-08;
const O_THRESHOLD = 7.09782712893383973096e+02, U_THRESHOLD = -7.45133219101941108420e+02;

const bits = new Float64Array(1), words = new Uint32Array(bits.buffer);
const HIGH = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1 ? 1 : 0;   // the high word's index

// The double whose high 32 bits are `high` and low 32 bits zero: fdlibm compares |x|'s high word with such
// constants, and comparing |x| with these doubles is the same test.
function fromHigh(high) {
  words[HIGH] = high;
  words[1 - HIGH] = 0;
  return bits[0];
}

const ABOVE_HALF_LN2 = fromHigh(0x3fd62e43);      // |x| ≥ this: high word > 0x3fd62e42
const BELOW_3_HALF_LN2 = fromHigh(0x3ff0a2b2);    // |x| < this: high word < 0x3ff0a2b2
const TINY = fromHigh(0x3e300000);                // 2^-28
const EDGE = fromHigh(0x40862e42);                // about 709.78
const POW2 = new Float64Array(2046);              // 2^n for -1022 ≤ n ≤ 1023, exactly, at n + 1022
for (let n = -1022; n <= 1023; n++) POW2[n + 1022] = fromHigh((n + 1023) << 20);
const TWO_M1000 = POW2[-1000 + 1022];

export function exp(x) {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x), xsb = x < 0 ? 1 : 0;
  if (ax >= EDGE) {                                // |x| ≥ 709.78: ±∞, overflow or underflow
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0;
  }
  let hi = 0, lo = 0, k = 0;
  if (ax >= ABOVE_HALF_LN2) {                      // |x| > ln2 / 2: reduce
    if (ax < BELOW_3_HALF_LN2) {                   // and |x| < 3 ln2 / 2
      hi = x - LN2_HI[xsb];
      lo = LN2_LO[xsb];
      k = 1 - xsb - xsb;
    } else {
      k = (INV_LN2 * x + HALF[xsb]) | 0;            // truncated towards zero, as C's (int)
      hi = x - k * LN2_HI[0];                      // exact
      lo = k * LN2_LO[0];
    }
    x = hi - lo;
  } else if (ax < TINY) {                          // |x| < 2^-28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2.0) - x);
  const y = 1 - ((lo - (x * c) / (2.0 - c)) - hi);
  if (k === 1024) return (y * 2) * POW2[1023 + 1022];   // 2^1024 itself is beyond the doubles
  return k >= -1021 ? y * POW2[k + 1022] : (y * POW2[k + 1000 + 1022]) * TWO_M1000;
}
