// Training runs here, off the page's thread: the page stays responsive and draws each report as it comes.
// The page sends {run, spec, init (float32 ArrayBuffer), lr, steps}; the worker answers with a "progress"
// message every `every` steps (the losses since the last one, the goal sentence's answer rows) and one "done".
import { converged, cuePattern, fromFloat32, looks, train } from "./train.js";

onmessage = (event) => {
  const { run, spec, init, lr, steps, every } = event.data;
  try {
    const t0 = performance.now();
    let first = null;
    const out = train(spec, fromFloat32(init), {
      lr, steps, every,
      onProgress: (p) => {
        if (first === null) first = performance.now() - t0;
        postMessage({ type: "progress", run, ...p });
      },
    });
    const look = looks(spec, out.result.rows);
    postMessage({ type: "done", run, result: out.result, looks: look, converged: converged(spec, out.result),
                  cue: cuePattern(spec, look), ms: performance.now() - t0, firstMs: first });
  } catch (err) {
    postMessage({ type: "error", run, message: String(err && err.message || err) });
  }
};
