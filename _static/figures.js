// Draws the page's plotly figures as the reader comes to them.
//
// compute.figures.figure_html leaves each figure as an empty div at the
// figure's height and its JSON ({data, layout, frames, config}) in a
// <script type="application/json" class="plotly-figure-spec" data-for=ID>.
// Drawing one figure costs plotly.js 30-150 ms, so drawing all of a long
// lesson's figures on load would hold the page for seconds; instead each is
// drawn when it comes within a screen's height of the viewport (on load, on
// scrolling, on following a link into the page), and every one is drawn
// before the page is printed.
//
// A keyboard reader moves by focus, not by scrolling, so focus also draws: when
// any element takes focus, the next figures after it in the page are drawn, so
// their controls are there by the time Tab reaches them.
//
// When a figure is drawn its div fires "figure-drawn" (bubbling), which
// plotly-keyboard.js and plotly-theme.js listen for.
//
// window.siteFigures.draw(gd) and .drawAll() draw now and return a promise;
// the handout printer and the tests call drawAll. A page opened for print
// (the handout printer emulates print media) draws its figures one by one in
// page order from the start.
(function () {
  "use strict";

  var drawing = new Map(); // div -> promise of its drawing

  function spec(gd) {
    var script = document.querySelector('script.plotly-figure-spec[data-for="' + gd.id + '"]');
    if (!script) throw new Error("figure #" + gd.id + " has no JSON");
    return JSON.parse(script.textContent);
  }

  function draw(gd) {
    if (!drawing.has(gd)) {
      if (observer) observer.unobserve(gd);
      var figure = spec(gd);
      // plotly-menus.js: a row of buttons too wide for this screen is drawn as a drop-down
      if (window.siteMenus) window.siteMenus.fit(figure, gd.clientWidth || gd.getBoundingClientRect().width);
      drawing.set(gd, window.Plotly.newPlot(gd, figure).then(function () {
        gd.dispatchEvent(new CustomEvent("figure-drawn", { bubbles: true }));
        return gd;
      }));
    }
    return drawing.get(gd);
  }

  function figures() {
    return Array.prototype.slice.call(document.querySelectorAll(".plotly-graph-div"));
  }

  var printing = null; // the in-order drawing of a page opened for print

  function drawAll() {
    return printing || Promise.all(figures().map(draw));
  }

  // True when gd is on the screen that starts `top` px below the viewport's top.
  function onScreen(gd, top) {
    var r = gd.getBoundingClientRect();
    return r.bottom > top && r.top < top + window.innerHeight;
  }

  // Figures near the viewport but not in it are drawn each in a task of its
  // own, so that the ones in view come first and input is handled between.
  function drawLater(gd) {
    setTimeout(function () { draw(gd); }, 0);
  }

  function linkTarget() {
    try {
      return location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    } catch (e) {
      return null; // a malformed #fragment links nowhere
    }
  }

  var observer = null;
  var AHEAD = 2; // figures drawn ahead of the keyboard focus

  // The first AHEAD undrawn figures that come after `el` in the document.
  function nextFigures(el) {
    return figures().filter(function (gd) {
      return !drawing.has(gd) && (el.compareDocumentPosition(gd) & Node.DOCUMENT_POSITION_FOLLOWING);
    }).slice(0, AHEAD);
  }

  // One after another, in page order: a printed handout is the same bytes every time
  // (the PDF's structure follows the order in which the figures' elements were made).
  function drawInOrder() {
    return figures().reduce(function (done, gd) {
      return done.then(function () { return draw(gd); });
    }, Promise.resolve());
  }

  function start() {
    if (window.matchMedia && window.matchMedia("print").matches) {
      // the handout printer: every figure, no lazy drawing, after the math is typeset
      printing = Promise.resolve(window.siteMath).then(drawInOrder);
      return;
    }
    // A link into the page (#id) will scroll there: that screen comes first.
    var target = linkTarget();
    var top = target ? target.getBoundingClientRect().top : 0;
    figures().forEach(function (gd) {
      if (onScreen(gd, top)) draw(gd);
    });
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        if (onScreen(entry.target, 0)) draw(entry.target);
        else drawLater(entry.target);
      });
    }, { rootMargin: "100% 0px" });
    figures().forEach(function (gd) {
      if (!drawing.has(gd)) observer.observe(gd);
    });
    document.addEventListener("focusin", function (event) {
      nextFigures(event.target).forEach(drawLater);
    });
  }

  window.siteFigures = { draw: draw, drawAll: drawAll };
  window.addEventListener("beforeprint", drawAll);
  // Loaded last of the deferred figure scripts (sitebuild/pages.py): the page
  // is parsed and the keyboard and theme listeners are in place.
  start();
})();
