// Loads MathJax (vendor/mathjax/es5/tex-chtml.js) in the page Sphinx writes.
// It runs only while the site is built: sitebuild/math/typeset.py opens each
// page with math in Chromium, waits for window.siteMath (resolved when
// MathJax has typeset the page), writes the typeset math into the page and
// removes this script and the window.MathJax configuration before it. A
// reader's browser never loads it. conf.py's mathjax_path points Sphinx here.
(function () {
  "use strict";
  var src = new URL("vendor/mathjax/es5/tex-chtml.js", document.currentScript.src).href;
  window.siteMath = new Promise(function (resolve, reject) {
    function load() {
      var script = document.createElement("script");
      script.src = src;
      script.async = true;
      script.onload = function () { window.MathJax.startup.promise.then(resolve, reject); };
      script.onerror = function () { reject(new Error("MathJax did not load: " + src)); };
      document.head.appendChild(script);
    }
    // rAF runs just before the first frame is painted; the timeout, after it.
    requestAnimationFrame(function () { setTimeout(load, 0); });
  });
})();
