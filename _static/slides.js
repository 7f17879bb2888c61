// A lesson's deck (sitebuild/decks/cut.py): reveal.js with the site's own figures.
//
// Slides fill the screen at their own size (reveal.js scales nothing), the slide's number is in the address,
// and each figure is drawn, live, when its slide is first shown: the page's layout, magnified to fill the
// room the slide leaves (siteSlides, which figures.js asks before it draws). Keys are reveal.js's: arrows,
// space, page up/down (a clicker), O or Esc for the overview, S for the speaker notes. On paper (`?print-pdf`)
// a figure's slide is its printed states instead.
(function () {
  "use strict";

  // The figure's size on its slide: from where it starts down to the slide's padding, less what stands under it
  // (its caption, the arithmetic line), as wide as the slide; its words scaled with the slide's width.
  function below(el, stop) {
    var height = 0;
    for (var next = el.nextElementSibling; next; next = next.nextElementSibling) {
      var style = getComputedStyle(next);
      if (style.display === "none" || style.position === "absolute") continue;
      height += next.offsetHeight + (parseFloat(getComputedStyle(stop).rowGap) || 0);
    }
    return height;
  }
  // No word of a figure smaller than `least` (the page's own type): a label the page sets smaller to fit a
  // phone grows to it. A list of sizes too; data arrays are not walked.
  function atLeast(value, least) {
    if (Array.isArray(value)) {
      if (value.length && value[0] !== null && typeof value[0] === "object") {
        value.forEach(function (v) { atLeast(v, least); });
      }
      return;
    }
    if (!value || typeof value !== "object") return;
    Object.keys(value).forEach(function (key) {
      var inner = value[key];
      if (/font$/i.test(key) && inner && typeof inner === "object" && !Array.isArray(inner)) {
        var grow = function (size) { return Math.max(least, size); };
        if (typeof inner.size === "number") inner.size = grow(inner.size);
        else if (Array.isArray(inner.size)) inner.size = inner.size.map(grow);
      }
      if (key !== "hoverlabel") atLeast(inner, least);
    });
  }

  var PAGE_FONT = 13;      // a figure's type on the page (compute.present.figures)
  var SLIDE_FONT = 24;     // the least type on a slide 1280 px wide, more on a wider one

  // The figure as its page lays it out, magnified: laid out at the slide's size divided by `scale` and drawn
  // `scale` times larger (a CSS transform, which plotly's pointer handling allows for), so that the page's type
  // becomes SLIDE_FONT and nothing moves against anything else. figures.js asks for the geometry and has the
  // figure fitted (its slide's layout, its type) before it fits the figure's menus to its width.
  // Measured in layout pixels (offsets), which the overview's scaling of every slide leaves as they are: a
  // figure whose drawing starts as the reader opens the overview is still sized for its slide. A slide far
  // from the one shown is not laid out (reveal.js sets display: none): it is shown for the measuring, as
  // reveal.js does for its own, so that a figure drawn before its slide comes up is drawn for it.
  function topWithin(el, slide) {
    var top = 0;
    for (; el && el !== slide; el = el.offsetParent) top += el.offsetTop;
    return top;
  }

  function geometry(gd) {
    var slide = gd.closest("section"), box = gd.closest("figure");
    if (!slide || !box) return null;
    gd.style.transform = "";
    gd.style.marginBottom = "";
    var unloaded = slide.style.display === "none";
    if (unloaded) slide.style.display = "block";
    var bottom = slide.clientHeight - parseFloat(getComputedStyle(slide).paddingBottom);
    var room = bottom - topWithin(gd, slide) - below(gd, box) - below(box, slide) - 8;
    var scale = SLIDE_FONT * Math.max(1, slide.clientWidth / 1280) / PAGE_FONT;
    var width = Math.max(200, Math.floor(box.clientWidth / scale));
    if (unloaded) slide.style.display = "none";
    return { width: width, shown: width, height: Math.max(120, Math.floor(room / scale)), scale: scale };
  }

  // What the figure declares for its slide (compute.present.figures.Slide): changes to its page's layout, keyed
  // as plotly.relayout keys them ("yaxis.domain", "annotations[1].y"), for a figure whose page layout is too tall
  // for a slide's proportions.
  function relaid(layout, changes) {
    Object.keys(changes).forEach(function (path) {
      var keys = path.replace(/\[(\d+)\]/g, ".$1").split("."), last = keys.pop(), at = layout;
      keys.forEach(function (key, k) {
        if (at[key] === undefined) at[key] = /^\d+$/.test(keys[k + 1] || last) ? [] : {};
        at = at[key];
      });
      at[last] = changes[path];
    });
  }

  function fit(gd, figure, geo) {
    var layout = figure.layout;
    var declared = gd.closest("figure").dataset.slide;
    if (declared) relaid(layout, JSON.parse(declared).layout);
    layout.width = geo.width;
    layout.height = geo.height;
    layout.autosize = false;
    atLeast(layout, PAGE_FONT);
    figure.data.forEach(function (trace) {
      // a heatmap's numbers in its cells are sized to fit them unless told (smaller than the page's type)
      if (trace.type === "heatmap" && (trace.texttemplate || trace.text)) {
        trace.textfont = Object.assign({ size: PAGE_FONT }, trace.textfont);
      }
      atLeast(trace, PAGE_FONT);
    });
    Object.keys(layout).forEach(function (key) {       // a log axis's labels between its decades are set smaller
      if (/^[xy]axis\d*$/.test(key) && layout[key].type === "log" && layout[key].dtick === undefined) layout[key].dtick = 1;
    });
    gd.style.width = geo.width + "px";
    gd.style.transformOrigin = "0 0";
    gd.style.transform = "scale(" + geo.scale + ")";
    gd.style.marginBottom = Math.floor(geo.height * (geo.scale - 1)) + "px";  // the room its magnified drawing takes
  }
  window.siteSlides = { geometry: geometry, fit: fit };


  var PAPER = { width: 1280, height: 720 };  // a page of the slides' PDF, in CSS px (sitebuild.slidepdfs.printer)

  // A display equation wider than the slide is shrunk to fit it, not scrolled.
  function fitEquations(slide) {
    slide.querySelectorAll(".deck-equation").forEach(function (eq) {
      eq.style.zoom = "";
      if (eq.scrollWidth > eq.clientWidth) eq.style.zoom = String(eq.clientWidth / eq.scrollWidth);
    });
  }

  function drawOn(slide) {
    if (!slide) return;
    fitEquations(slide);
    slide.querySelectorAll(".plotly-graph-div").forEach(function (gd) {
      window.siteFigures.draw(gd).catch(function () {});
    });
  }

  // light or dark as the reader's system is, now and when it changes (plotly-theme.js follows data-theme)
  var scheme = matchMedia("(prefers-color-scheme: dark)");
  function follow() { document.documentElement.dataset.theme = scheme.matches ? "dark" : "light"; }
  follow();
  scheme.addEventListener("change", follow);

  // On screen a figure's slide is the live figure; on paper (reveal.js's print view, `?print-pdf`, which the
  // build prints to PDF) it is a slide per state the page prints, drawn at build (decks.paper_slides).
  var paper = /print-pdf/.test(location.search);
  document.querySelectorAll(paper ? ".slides > section.deck-figure" : ".slides > section.deck-paper")
    .forEach(function (slide) { slide.remove(); });

  window.Reveal.initialize({
    hash: !paper, width: paper ? PAPER.width : "100%", height: paper ? PAPER.height : "100%", margin: 0,
    minScale: 1, maxScale: 1, center: false, slideNumber: "c/t", showSlideNumber: paper ? "print" : "all",
    pdfMaxPagesPerSlide: 1, transition: "none", plugins: [window.RevealNotes],
  }).then(function () { if (!paper) drawOn(window.Reveal.getCurrentSlide()); });
  window.Reveal.on("pdf-ready", function () { document.documentElement.dataset.paperReady = "true"; });
  window.Reveal.on("slidechanged", function (event) { drawOn(event.currentSlide); });
})();
