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

  window.Reveal.initialize({
    hash: true, width: "100%", height: "100%", margin: 0, minScale: 1, maxScale: 1, center: false,
    slideNumber: "c/t", transition: "none", plugins: [window.RevealNotes],
  }).then(function () { drawOn(window.Reveal.getCurrentSlide()); });
  window.Reveal.on("slidechanged", function (event) { drawOn(event.currentSlide); });
})();
