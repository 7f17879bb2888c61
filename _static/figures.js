// Draws the page's plotly figures as the reader comes to them.
//
// plotly.js itself (0.4 MB compressed) is not part of the page: it is fetched
// when the first figure is about to be drawn.
//
// compute.figures.figure_html leaves each figure as an empty div at the
// figure's height and its JSON ({data, layout, frames, config}) in a
// <script type="application/json" class="plotly-figure-spec" data-for=ID>;
// on the published site that script is empty and names a file of the JSON
// (data-src, sitebuild/figurefiles.py), fetched when the figure is drawn.
// Drawing one figure costs plotly.js 30-150 ms, so drawing all of a long
// lesson's figures on load would hold the page for seconds; instead each is
// drawn when it comes within a quarter of a screen of the viewport (on load, on
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
// page order from the start, none taller than half a page.
(function () {
  "use strict";

  var drawing = new Map(); // div -> promise of its drawing

  // plotly.js is fetched once, when the first figure is to be drawn (sitebuild/pages.py puts its
  // URL, relative to the page, on this script's tag).
  var plotlySrc = document.currentScript && document.currentScript.getAttribute("data-plotly");
  var plotly = null;
  function loadPlotly() {
    if (window.Plotly) return Promise.resolve(window.Plotly);
    if (!plotly) {
      plotly = new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = new URL(plotlySrc, document.baseURI).href;
        script.onload = function () { resolve(window.Plotly); };
        script.onerror = function () { plotly = null; reject(new Error("plotly.js did not load: " + script.src)); };
        document.head.appendChild(script);
      });
    }
    return plotly;
  }

  // A figure's JSON: in the page (a notebook's output, the handout printer's copy), or, on the published
  // site, in the file its script names (sitebuild/figurefiles.py), fetched when the figure is drawn.
  function spec(gd) {
    var script = document.querySelector('script.plotly-figure-spec[data-for="' + gd.id + '"]');
    if (!script) return Promise.reject(new Error("figure #" + gd.id + " has no JSON"));
    var src = script.getAttribute("data-src");
    if (!src) return Promise.resolve(JSON.parse(script.textContent));
    var url = new URL(src, document.baseURI).href;
    return fetch(url).then(function (r) {
      if (!r.ok) throw new Error("figure data did not load: " + url + " (" + r.status + ")");
      return r.json();
    });
  }

  // Everything that depends on the screen the figure is drawn on, just before plotly draws it.
  function prepare(gd, figure) {
    if (printMode) forPrint(gd, figure);
    // plotly-menus.js: a row of buttons too wide for this screen is drawn as a drop-down. A figure
    // wider than the screen (its min-width) scrolls in its box: its controls must fit the part shown.
    var width = gd.clientWidth || gd.getBoundingClientRect().width;
    var box = gd.parentElement.classList.contains("figure-scroll") ? gd.parentElement : null;
    var shown = box ? Math.min(width, box.clientWidth) : width;
    if (window.siteMenus) window.siteMenus.fit(figure, width, shown);
    if (figure.layout.height) gd.style.height = figure.layout.height + "px"; // a drop-down may need more room
    if (box && box.scrollWidth > box.clientWidth + 1) {
      // a box that scrolls takes keyboard focus (arrow keys scroll it) and says what it is
      box.tabIndex = 0;
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", "figure, scrolls sideways");
    }
    return figure;
  }

  // A printed figure is at most this tall (CSS px; an A4 page holds about 1000 below its margins):
  // with its caption it then takes at most half a page, so a figure that moves to the next page
  // never leaves the page before it less than half full.
  // A figure with many rows (a heatmap's, a horizontal bar chart's) keeps ROW_PX for each, so that
  // no row label is dropped.
  var PRINT_HEIGHT = 420;
  var ROW_PX = 16;

  // Rows the figure stacks, per y axis: its longest list of heatmap rows or horizontal bars.
  function rowsPerAxis(figure) {
    var perAxis = {};
    (figure.data || []).forEach(function (t) {
      if ((t.type === "heatmap" || (t.type === "bar" && t.orientation === "h")) && Array.isArray(t.y)) {
        var axis = t.yaxis || "y";
        perAxis[axis] = Math.max(perAxis[axis] || 0, t.y.length);
      }
    });
    return perAxis;
  }

  function forPrint(gd, figure) {
    var height = figure.layout.height || 450;
    var m = figure.layout.margin || {};
    var perAxis = rowsPerAxis(figure);
    var rows = Object.keys(perAxis).reduce(function (n, axis) { return n + perAxis[axis]; }, 0);
    var least = (m.t === undefined ? 100 : m.t) + (m.b === undefined ? 80 : m.b) + ROW_PX * rows;
    var printed = Math.min(height, Math.max(PRINT_HEIGHT, least));
    if (printed < height) {
      figure.layout.height = printed;
      gd.style.height = printed + "px";
      // plotly drops every other label of a crowded axis: a label for every row
      Object.keys(perAxis).forEach(function (axis) {
        var name = "yaxis" + axis.slice(1);
        figure.layout[name] = Object.assign({}, figure.layout[name], { tickmode: "linear", tick0: 0, dtick: 1 });
      });
    }
  }

  // A legend under the plot is placed in plot units, the axis title below the ticks in pixels: at some widths
  // (a phone, the handout) the title lands on the legend. Move the legend down until it clears every x-axis
  // title; the figure keeps its height (plotly takes the room from the plot). At most a few steps.
  function overlap(a, b) {
    return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  }

  var LEGEND_STEPS = 8;  // moves per figure, in all: a legend that cannot clear a title stops somewhere

  function legendBelowTitles(Plotly, gd) {
    var box = gd.querySelector(".legend .bg");
    var legend = gd._fullLayout && gd._fullLayout.legend;
    var moved = gd._legendMoves || 0;
    if (!box || !legend || legend.yanchor === "bottom" || !(legend.y < 0) || moved >= LEGEND_STEPS) {
      return Promise.resolve(gd);
    }
    var l = box.getBoundingClientRect();
    var titles = Array.prototype.slice.call(gd.querySelectorAll('[class^="g-x"][class$="title"] text'))
      .map(function (t) { return t.getBoundingClientRect(); })
      .filter(function (r) { return r.width && overlap(r, l); });
    if (!titles.length) return Promise.resolve(gd);
    var below = Math.max.apply(null, titles.map(function (r) { return r.bottom; })) - l.top + 4;  // px
    gd._legendMoves = moved + 1;
    var update = { "legend.y": legend.y - below / gd._fullLayout._size.h };
    return Plotly.relayout(gd, update).then(function () { return legendBelowTitles(Plotly, gd); });
  }

  // Checked after the first drawing and after every later one (a resize, the page printed at its own width).
  function keepLegendBelowTitles(Plotly, gd) {
    var pending = false;
    // A printed page is drawn once at its final width: the move made below, which the drawing waits for, is
    // the last, and a later one, in a frame of its own, could land while the page prints (handouts not the
    // same bytes twice).
    if (printMode) return legendBelowTitles(Plotly, gd);
    gd.on("plotly_afterplot", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; legendBelowTitles(Plotly, gd); });
    });
    return legendBelowTitles(Plotly, gd);
  }

  function draw(gd) {
    if (!drawing.has(gd)) {
      if (observer) observer.unobserve(gd);
      // the figure's data and plotly.js are fetched side by side
      drawing.set(gd, Promise.all([spec(gd), loadPlotly()]).then(function (both) {
        var Plotly = both[1];
        return Plotly.newPlot(gd, prepare(gd, both[0])).then(function () { return keepLegendBelowTitles(Plotly, gd); });
      }).then(function () {
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
  var printMode = !!(window.matchMedia && window.matchMedia("print").matches);

  function drawAll() {
    return printing || Promise.all(figures().map(draw));
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

  // Resolves once the figures of the screen the page opens on are drawn (site.js lays out the rest of the
  // page after them).
  var firstScreen = null;

  function start() {
    if (printMode) {
      // the handout printer: every figure, no lazy drawing, after the math is typeset
      printing = Promise.resolve(window.siteMath).then(drawInOrder);
      firstScreen = printing;
      return;
    }
    // A link into the page (#id) will scroll there: a linked figure is drawn at once. The rest are found
    // by the observer, whose first report (in the first frame, after that scroll) says which are on
    // screen: measuring each figure here would lay out the whole page before its first paint,
    // sections the browser skips while they are off screen (site.css) included.
    var target = linkTarget();
    var first = target && target.classList.contains("plotly-graph-div") ? [draw(target)] : [];
    var reported = null;
    firstScreen = new Promise(function (done) { reported = done; });
    function report(drawings) {  // once: the first screen is these drawings
      if (!reported) return;
      Promise.all(drawings).then(reported, reported);
      reported = null;
    }
    observer = new IntersectionObserver(function (entries) {
      var inView = [];
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        var r = entry.boundingClientRect;
        if (r.bottom > 0 && r.top < window.innerHeight) inView.push(draw(entry.target));
        else drawLater(entry.target);
      });
      report(first.concat(inView));
    }, { rootMargin: "25% 0px" });
    var observed = figures().filter(function (gd) { return !drawing.has(gd); });
    observed.forEach(function (gd) { observer.observe(gd); });
    if (!observed.length) report(first);  // no observer report will come
    document.addEventListener("focusin", function (event) {
      nextFigures(event.target).forEach(drawLater);
    });
  }

  window.siteFigures = {
    draw: draw,
    drawAll: drawAll,
    firstScreen: function () { return firstScreen; },
  };
  window.addEventListener("beforeprint", drawAll);
  // Loaded last of the deferred figure scripts (sitebuild/pages.py): the page
  // is parsed and the keyboard and theme listeners are in place.
  start();
})();
