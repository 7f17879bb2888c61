// Loads MathJax (vendor/mathjax/es5/tex-chtml.js) once the page has been
// shown, instead of as one of the deferred scripts that run before the first
// frame: MathJax takes a few hundred ms to start, and the text and the
// figures in view should not wait for it. conf.py's mathjax_path points
// Sphinx here, so pages with math get this script (deferred) and the
// window.MathJax configuration Sphinx writes before it.
//
// window.siteMath resolves when MathJax has typeset the page; the handout
// printer and the tests wait for it.
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
