// A row of figure buttons that does not fit the screen becomes a drop-down.
// Loaded after plotly.js and before figures.js on pages with figures
// (sitebuild/pages/extension.py); figures.js calls siteMenus.fit(spec, width) on each
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
  var ROWS = "button rows"; // compute.present.widgets.BUTTON_ROWS
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

  // Rows of one set of buttons (compute's button_rows names each "button rows"): when one of
  // them would not fit, they become one drop-down, in place of the lowest row, with every button
  // in order and the button drawn first as its header.
  function foldRows(layout, width, shown, grow) {
    var menus = layout.updatemenus || [];
    var rows = menus.filter(function (menu) { return menu.name === ROWS; });
    if (rows.length < 2 || rows.every(function (menu) { return rowRight(menu, layout, width) <= shown - MARGIN; })) {
      return;
    }
    var active = -1, seen = 0;
    var buttons = [].concat.apply([], rows.map(function (menu) {
      if (menu.active >= 0 && active < 0) active = seen + menu.active;
      seen += menu.buttons.length;
      return menu.buttons;
    }));
    var lowest = rows[rows.length - 1];
    var folded = Object.assign({}, lowest, {
      buttons: buttons, type: "dropdown", direction: "down", showactive: true, active: Math.max(active, 0),
    });
    layout.updatemenus = menus.filter(function (menu) { return menu.name !== ROWS; }).concat([folded]);
    if (grow) roomForList(layout, folded);
  }

  var ITEM = 35; // px: plotly's height of one item of an open drop-down list, with its gap

  // A drop-down's open list is drawn inside the figure: a figure too short for the whole list
  // would scroll it, hiding items from a tap. The figure grows to hold it.
  function roomForList(layout, menu) {
    var m = layout.margin || {}, t = m.t === undefined ? 100 : m.t, b = m.b === undefined ? 80 : m.b;
    var height = layout.height || 450;
    var plot = height - t - b;
    var y = menu.y === undefined ? 1 : menu.y;
    var below = (menu.yanchor || "top") === "bottom" ? -((menu.pad && menu.pad.b) || 0) : 0;
    var listTop = t + (1 - y) * plot + below;
    var needed = Math.ceil(listTop + menu.buttons.length * ITEM + 8);
    if (needed > height) { // the room goes below the plot, which keeps its size
      layout.margin = Object.assign({}, m, { b: b + needed - height });
      layout.height = needed;
    }
  }

  // A slider ends inside the part of the figure on screen.
  function fitSliders(layout, width, shown) {
    var m = layout.margin || {}, l = m.l === undefined ? 80 : m.l, r = m.r === undefined ? 80 : m.r;
    var plot = width - l - r;
    (layout.sliders || []).forEach(function (slider) {
      var x = slider.x === undefined ? 0 : slider.x, len = slider.len === undefined ? 1 : slider.len;
      var room = (shown - MARGIN - l) / plot - x;
      if (x + len > (shown - MARGIN - l) / plot && room > 0.2) slider.len = room;
    });
  }

  // `width`: the px the figure is drawn at; `shown`: how much of it is on screen (less when the
  // figure scrolls sideways in its box). Controls must fit the part shown. `fixed`: the figure's height
  // is its room's (a slide, slides.js), which it keeps: an open list is drawn over the plot.
  function fit(spec, width, shown, fixed) {
    var layout = spec.layout || {};
    shown = shown || width;
    foldRows(layout, width, shown, !fixed);
    fitSliders(layout, width, shown);
    (layout.updatemenus || []).forEach(function (menu) {
      var row = (menu.type || "buttons") === "buttons" && (menu.direction || "left") !== "down" && menu.direction !== "up";
      if (!row || menu.buttons.length < 2 || rowRight(menu, layout, width) <= shown - MARGIN) return;
      menu.type = "dropdown";
      menu.direction = "down";
      menu.showactive = true;
      if (!(menu.active >= 0)) menu.active = 0;
      if (!fixed) roomForList(layout, menu);
    });
    if (shown < NARROW) {
      spec.config = Object.assign({}, spec.config, { displayModeBar: false });
    }
    return spec;
  }

  window.siteMenus = { fit: fit, rowRight: rowRight };
})();
