// A box's model worker, started when the reader nears the box: the worker loads the exported weights from the
// box's data-models folder and answers "ready" (with the vocabulary and the model's sizes) or "error".
export function startWorker(box, url, say) {
  say("Loading the model…");
  const worker = new Worker(url, { type: "module" });
  const ready = new Promise((resolve, reject) => {
    worker.onmessage = (event) => {
      const msg = event.data;
      if (msg.type === "ready") {
        resolve(msg);
      } else if (msg.type === "error") {
        say("The model could not be loaded: " + msg.message);
        reject(new Error(msg.message));
      }
    };
  });
  worker.postMessage({ type: "load", base: new URL(box.dataset.models, document.baseURI).href });
  return { worker, ready };
}

// Call `load` once the reader nears the box (half a screen away) or moves the focus into it.
export function loadWhenNear(box, load) {
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) { observer.disconnect(); load().catch(() => {}); }
  }, { rootMargin: "50% 0px" });
  observer.observe(box);
  box.addEventListener("focusin", () => load().catch(() => {}), { once: true });
}
