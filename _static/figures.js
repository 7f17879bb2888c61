// The page's plotly figures: a picture from the first paint, the live figure once the reader touches it.
//
// When the site builds, every figure is drawn with this file's own plot() (sitebuild/figures/render.py), as an
// SVG per light/dark mode and per width: the page's <head> shows it as the figure box's background, at the
// box's final size, from the first paint. plotly.js (about 1 MB) is not part of the page: it is fetched when
// the reader first interacts with a figure (the pointer comes over it, a tap, keyboard focus, or its
// "Show the arithmetic" button), and the live figure is then drawn into the same box at the same size, over
// the picture: nothing moves. A click or tap made while plotly.js loads is made again on the live figure.
//
// The box's width comes from site.css and the build's rules: the wide width where the text column holds it,
// else the phone's (a CSS container query sets --fig to "wide" or "narrow"); data-geometry gives, for each,
// the px the figure is drawn at, the px of it on screen (its controls fit those) and its height.
//
// compute.present.figures.figure_html leaves each figure's JSON in a
// <script type="application/json" class="plotly-figure-spec" data-for=ID>; on the published site that
// script is empty and names a file of the JSON (data-src, sitebuild/figures/files.py).
//
// A figure whose picture or data cannot be loaded says so in one line, with its summary in words.
//
// When a figure is drawn its div fires "figure-drawn" (bubbling), which plotly-keyboard.js and
// plotly-theme.js listen for. window.siteFigures.draw(gd) and .drawAll() draw now and return a promise
// (the tests use them); .plot(gd, figure, geometry) is the drawing itself, which the build uses too.
// Paper never draws a live figure: print shows the states the text cites, drawn at build (print.css).
(function () {
  "use strict";

  var drawing = new Map(); // div -> promise of its drawing

  // plotly.js is fetched once, when the first figure is to be drawn (sitebuild/pages/extension.py puts its
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

  // A figure's JSON: in the page (a notebook's output, the build's copy), or, on the published
  // site, in the file its script names (sitebuild/figures/files.py), fetched when the figure is drawn.
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

  // The px the figure is drawn at and the px of it on screen: the build's, for the width class the page's
  // rules give the box (--fig); a figure the build did not draw (a notebook's) takes its box as it is.
  function geometry(gd) {
    var drawn = gd.getAttribute("data-geometry");
    if (drawn) {
      var which = getComputedStyle(gd).getPropertyValue("--fig").trim() || "wide";
      return JSON.parse(drawn)[which];
    }
    var width = gd.clientWidth || gd.getBoundingClientRect().width;
    var box = gd.parentElement.classList.contains("figure-scroll") ? gd.parentElement : null;
    return { width: width, shown: box ? Math.min(width, box.clientWidth) : width };
  }

  // Everything that depends on the width the figure is drawn at, just before plotly draws it: a row of
  // buttons too wide for the part on screen becomes a drop-down (plotly-menus.js).
  function prepare(gd, figure, geo) {
    var slide = window.siteSlides ? window.siteSlides.geometry(gd) : null;  // a slide sizes its figure (slides.js)
    if (slide) {       // its slide's layout and type first: its buttons are measured as they will be drawn
      geo = slide;
      window.siteSlides.fit(gd, figure, slide);
    }
    if (window.siteMenus) window.siteMenus.fit(figure, geo.width, geo.shown, Boolean(slide));
    if (figure.layout.height) gd.style.height = figure.layout.height + "px"; // the height the build found too
    return figure;
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

  // After a later drawing (a resize) too.
  function keepLegendBelowTitles(Plotly, gd) {
    var pending = false;
    gd.on("plotly_afterplot", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; legendBelowTitles(Plotly, gd); });
    });
  }

  // The drawing itself, the same for the reader's page and the build's pictures.
  function plot(gd, figure, geo) {
    return loadPlotly().then(function (Plotly) {
      return Plotly.newPlot(gd, prepare(gd, figure, geo)).then(function () { return legendBelowTitles(Plotly, gd); });
    });
  }

  function figureOf(gd) {
    return gd.closest("figure") || gd.parentElement;
  }

  // One line in place of what could not be loaded, and the figure in words: no empty box.
  function fail(gd, what) {
    var figure = figureOf(gd);
    if (figure.classList.contains("figure-failed")) return;
    figure.classList.add("figure-failed");
    if (what === "picture") figure.classList.add("figure-failed-picture");
    var note = document.createElement("p");
    note.className = "figure-error";
    note.setAttribute("role", "status");
    note.textContent = (what === "picture" ? "This figure could not be loaded" : "The live figure could not be loaded") +
      "; here it is in words:";
    var summary = figure.querySelector(".figure-summary");
    figure.insertBefore(note, summary || null);
  }

  function draw(gd) {
    if (!drawing.has(gd)) {
      var figure = figureOf(gd);
      drawing.set(gd, spec(gd).then(function (data) {
        return plot(gd, data, geometry(gd)).then(function () {
          // drawn hidden over the picture (site.css), shown once it has the page's colours: a dark page never
          // shows a light figure, not for a frame
          return window.siteTheme ? window.siteTheme.follow(gd) : null;
        }).then(function () {
          keepLegendBelowTitles(window.Plotly, gd);
          gd.classList.add("figure-live");  // the picture under it goes, in the frame the figure shows
          gd.dispatchEvent(new CustomEvent("figure-drawn", { bubbles: true }));
          replay(gd);
          focusControls(gd);
          return gd;
        });
      }).catch(function (error) {
        fail(gd, "live");
        figure.dispatchEvent(new CustomEvent("figure-failed", { bubbles: true, detail: String(error) }));
        throw error;
      }));
    }
    return drawing.get(gd);
  }

  function figures() {
    return Array.prototype.slice.call(document.querySelectorAll(".plotly-graph-div"));
  }

  function drawAll() {
    return Promise.all(figures().map(draw));
  }

  // A click or tap on the picture while plotly.js loads: made again on the live figure, at the same place in it.
  var pending = new Map(); // div -> {x, y} within it

  function remember(gd, event) {
    if (gd.classList.contains("figure-live")) return;
    var r = gd.getBoundingClientRect();
    pending.set(gd, { x: event.clientX - r.left, y: event.clientY - r.top });
  }

  function replay(gd) {
    var at = pending.get(gd);
    pending.delete(gd);
    if (!at) return;
    var r = gd.getBoundingClientRect(), x = r.left + at.x, y = r.top + at.y;
    var target = document.elementFromPoint(x, y);
    if (!target || !gd.contains(target)) return;
    ["mousedown", "mouseup", "click"].forEach(function (type) {
      target.dispatchEvent(new MouseEvent(type, { bubbles: true, cancelable: true, view: window, clientX: x, clientY: y, button: 0 }));
    });
  }

  // Keyboard focus on a figure's box (it takes focus until its controls are drawn) moves to its first control.
  function focusControls(gd) {
    var hadFocus = document.activeElement === gd;
    ["tabindex", "role", "aria-label"].forEach(function (a) { gd.removeAttribute(a); });
    if (!hadFocus) return;
    var first = gd.querySelector('[tabindex="0"]');
    if (first) first.focus();
  }

  // Each figure's picture is checked as it nears the screen: one that did not load is replaced by the words.
  // Resolves when the picture has loaded or failed.
  function checkPicture(gd) {
    var url = /url\("?([^")]+)"?\)/.exec(getComputedStyle(gd).backgroundImage || "");
    if (!url) return Promise.resolve();
    return new Promise(function (done) {
      var img = new Image();
      img.onload = done;
      img.onerror = function () {
        if (!gd.classList.contains("figure-live")) fail(gd, "picture");
        done();
      };
      img.src = url[1];
    });
  }

  // Resolves once the pictures of the screen the page opens on have loaded (site.js lays out the rest of the
  // page after them), from the observer's first report: measuring each figure here would lay out the whole page
  // before its first paint, sections the browser skips while they are off screen (site.css) included.
  var firstScreen = null;

  var tabbed = -Infinity;  // when the reader last pressed Tab
  document.addEventListener("keydown", function (event) { if (event.key === "Tab") tabbed = performance.now(); }, true);

  function start() {
    var reported = null;
    firstScreen = new Promise(function (done) { reported = done; });
    var observer = new IntersectionObserver(function (entries) {
      var inView = [];
      entries.forEach(function (entry) {
        if (!entry.isIntersecting) return;
        observer.unobserve(entry.target);
        var checked = checkPicture(entry.target), r = entry.boundingClientRect;
        if (r.bottom > 0 && r.top < window.innerHeight) inView.push(checked);
      });
      if (reported) {
        Promise.all(inView).then(reported);
        reported = null;
      }
    }, { rootMargin: "25% 0px" });
    var pictured = figures().filter(function (gd) { return gd.hasAttribute("data-geometry"); });
    pictured.forEach(function (gd) { observer.observe(gd); });
    if (!pictured.length) reported();  // no observer report will come
    figures().forEach(function (gd) {
      var figure = figureOf(gd);
      var now = function () { draw(gd).catch(function () {}); };
      figure.addEventListener("pointerenter", now);
      figure.addEventListener("pointerdown", function (event) { remember(gd, event); now(); });
      // Focus moved by the reader's Tab key; not the focus a link to the figure (#id) gives its box.
      figure.addEventListener("focusin", function () { if (performance.now() - tabbed < 1000) now(); });
      gd.addEventListener("keydown", function (event) {
        if (event.target !== gd) return;
        if (event.key === "Tab" && !event.shiftKey) event.preventDefault();  // on into the controls, once drawn
        now();
      });
      gd.addEventListener("click", function (event) { if (!gd.classList.contains("figure-live")) remember(gd, event); }, true);
    });
    // What a reader prints from the browser: the printed states are pictures the page loads only then.
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll(".figure-print img[loading=lazy]").forEach(function (img) { img.loading = "eager"; });
    });
  }

  window.siteFigures = {
    draw: draw,
    drawAll: drawAll,
    plot: plot,
    firstScreen: function () { return firstScreen; },
  };
  // Loaded last of the deferred figure scripts (sitebuild/pages/extension.py): the page
  // is parsed and the keyboard and theme listeners are in place.
  start();
})();
