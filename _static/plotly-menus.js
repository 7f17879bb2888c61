// A row of figure buttons that does not fit the screen becomes a drop-down.
// Loaded after plotly.js and before figures.js on pages with figures
// (sitebuild/pages.py); figures.js calls siteMenus.fit(spec, width) on each
// figure's JSON just before drawing it.
//
// Plotly lays a menu's buttons out in one row and never wraps them: on a
// phone the last buttons of a long row sit outside the figure, where no tap
// reaches them. Each row is measured as plotly will draw it (label widths in
// the figure's font, plotly's padding); one that would run past the figure's
// right edge is drawn as plotly's own drop-down instead: its header shows the
// pressed button, a tap opens the list below it. The buttons, their order and
// what they do are the same in both forms. On a narrow screen the modebar
// (zoom, download) is left out too: it would cover the figure's title.
//
// The choice is made once, when the figure is drawn at the page's width.
(function () {
  "use strict";

  var MARGIN = 4;       // px kept free at the figure's right edge
  var TEXT_PAD = 24;    // plotly: a button is its label plus this (updatemenus constants textPadX)
  var GAP = 2;          // plotly: between buttons (gapButton)
  var NARROW = 600;     // px: below this the modebar is left out
  var canvas = null; // made on first use, off the document: no DOM node (the handouts' PDF bytes stay fixed)

  function textWidth(text, font) {
    if (!canvas) {
      canvas = (typeof OffscreenCanvas === "function" ? new OffscreenCanvas(1, 1)
                : document.createElement("canvas")).getContext("2d");
    }
    canvas.font = font.size + "px " + font.family;
    // plotly draws labels as SVG text; HTML in labels (<b>) is not used by the lessons
    return canvas.measureText(String(text)).width;
  }

  // The px a row of buttons reaches from the figure's left edge.
  function rowRight(menu, layout, width) {
    var base = layout.font || {};
    var font = {
      size: (menu.font && menu.font.size) || base.size || 12,
      family: (menu.font && menu.font.family) || base.family || "sans-serif",
    };
    var total = menu.buttons.reduce(function (sum, b) {
      return sum + Math.max(30, textWidth(b.label || "", font) + TEXT_PAD) + GAP;
    }, 0);
    var m = layout.margin || {}, l = m.l === undefined ? 80 : m.l, r = m.r === undefined ? 80 : m.r;
    var x = menu.x === undefined ? -0.05 : menu.x;
    var left = l + x * (width - l - r) + ((menu.pad && menu.pad.l) || 0);
    if (menu.xanchor === "right") left -= total;
    else if (menu.xanchor === "center") left -= total / 2;
    return left + total * 1.04; // 4% for rounding and borders
  }

  function fit(spec, width) {
    var layout = spec.layout || {};
    (layout.updatemenus || []).forEach(function (menu) {
      var row = (menu.type || "buttons") === "buttons" && (menu.direction || "left") !== "down" && menu.direction !== "up";
      if (!row || menu.buttons.length < 2 || rowRight(menu, layout, width) <= width - MARGIN) return;
      menu.type = "dropdown";
      menu.direction = "down";
      menu.showactive = true;
      if (!(menu.active >= 0)) menu.active = 0;
    });
    if (width < NARROW) {
      spec.config = Object.assign({}, spec.config, { displayModeBar: false });
    }
    return spec;
  }

  window.siteMenus = { fit: fit, rowRight: rowRight };
})();
