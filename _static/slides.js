// A lesson's deck (sitebuild/decks.py): reveal.js with the site's own figures.
//
// Slides fill the screen at their own size (no scaling: plotly's pointer positions stay true), the slide's
// number is in the address, and each figure is drawn, live, when its slide is first shown, as tall as the
// slide leaves room for (figures.js asks siteFigureFit before it draws). Keys are reveal.js's: arrows, space,
// page up/down (a clicker), O or Esc for the overview, S for the speaker notes.
(function () {
  "use strict";

  // The figure's size on its slide: from where it starts down to the slide's padding, less what stands under it
  // (its caption, the arithmetic line), as wide as the slide; its words scaled with the slide's width.
  function below(el, stop) {
    var height = 0;
    for (var next = el.nextElementSibling; next; next = next.nextElementSibling) {
      var style = getComputedStyle(next);
      if (style.display === "none" || style.position === "absolute") continue;
      height += next.getBoundingClientRect().height + (parseFloat(getComputedStyle(stop).rowGap) || 0);
    }
    return height;
  }
  window.siteFigureFit = function (gd, figure) {
    var slide = gd.closest("section"), box = gd.closest("figure");
    if (!slide || !box) return;
    var bottom = slide.getBoundingClientRect().bottom - parseFloat(getComputedStyle(slide).paddingBottom);
    var room = bottom - gd.getBoundingClientRect().top - below(gd, box) - below(box, slide) - 8;
    figure.layout.height = Math.max(240, Math.floor(room));
    delete figure.layout.width;
    figure.layout.autosize = true;
    var scale = Math.max(1, slide.getBoundingClientRect().width / 1280);
    figure.layout.font = Object.assign({}, figure.layout.font, { size: Math.round(20 * scale) });
    if (figure.layout.title && figure.layout.title.font) figure.layout.title.font.size = Math.round(22 * scale);
  };

  var PAPER = { width: 1280, height: 720 };  // a page of the slides' PDF, in CSS px (sitebuild.deckprint)

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
