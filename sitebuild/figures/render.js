// Run by the build (sitebuild/figures/render.py) in headless Chromium, on a page that loads the site's own
// plotly.js, plotly-menus.js, plotly-theme.js and figures.js, so that a figure is drawn here exactly as the
// reader's page draws it. Never published.
//
// renderFigure(job) draws one figure from its JSON:
// * for the page: at the wide and the narrow width (job.web), with figures.js's own plot() (controls fitted
//   to the width, legend below the axis titles), as plotly's SVG in light and in the page's dark colours;
// * for paper and files: each state the figure declares (job.print), at the handout's width, with no control
//   drawn: the controls' own methods and arguments are run, as a click or a drag would run them, then the
//   controls are taken off; as SVG, with the numbers each state plots.
// rasterize(svg, scale) turns an SVG into a PNG data URL.
(function () {
  "use strict";

  // A copy of the figure whose traces have fixed ids: plotly names each trace's SVG group after its uid, a
  // random one where none is given, and two builds must draw the same bytes.
  function clone(x) {
    var copy = JSON.parse(JSON.stringify(x));
    (copy.data || []).forEach(function (trace, k) {
      if (trace && typeof trace === "object" && !trace.uid) trace.uid = "trace-" + k;
    });
    return copy;
  }

  // A box like the page's: the figure in a sideways-scrolling box `shown` px wide.
  function mount(width, height, shown) {
    var box = document.createElement("div");
    box.className = "figure-scroll";
    box.style.width = shown + "px";
    var gd = document.createElement("div");
    gd.className = "plotly-graph-div";
    gd.style.width = width + "px";
    gd.style.height = height + "px";
    box.appendChild(gd);
    document.body.appendChild(box);
    return gd;
  }

  function unmount(gd) {
    window.Plotly.purge(gd);
    gd.parentElement.remove();
  }

  // A picture of the figure: plotly.toImage draws it again, from the figure's data and layout as they are when
  // it is called, into a box of its own, and returns that box's SVG.
  function snapshot(gd) {
    var full = gd._fullLayout;
    return window.Plotly.toImage(gd, { format: "svg", width: full.width, height: full.height }).then(function (url) {
      return decodeURIComponent(url.slice(url.indexOf(",") + 1));
    });
  }

  // What a snapshot is drawn from: the data, the layout (plotly writes the ranges and margins it works out
  // back into it) and the size.
  function drawnFrom(gd) {
    return JSON.stringify([gd.data, gd.layout, gd._fullLayout.width, gd._fullLayout.height]);
  }

  function frames(n) {
    return new Promise(function (done) {
      (function next(k) { if (k <= 0) done(); else requestAnimationFrame(function () { next(k - 1); }); })(n);
    });
  }

  // The figure once it has settled: a snapshot whose data and layout are still the same two frames after it
  // was taken (a redraw plotly or figures.js schedules for a later frame, as an automargin pass or the legend
  // moved below the axis titles, lands before the picture is kept; on a busy machine one was once caught half
  // done, and two builds then drew different bytes). Else snapshot again, at most `tries` times.
  function svg(gd, tries) {
    tries = tries === undefined ? 5 : tries;
    var before = drawnFrom(gd);
    return snapshot(gd).then(function (image) {
      return frames(2).then(function () {
        if (drawnFrom(gd) === before || tries <= 1) return image;
        return svg(gd, tries - 1);
      });
    });
  }

  // The colour site.css gives plotly's pressed button (--figure-pressed), in the mode the page is in: an image
  // does not see the page's style sheets, so the SVG gets it written in.
  function pressed() {
    return getComputedStyle(document.documentElement).getPropertyValue("--figure-pressed").trim();
  }

  function web(spec, geometry) {
    var figure = clone(spec);
    var gd = mount(geometry.width, (figure.layout && figure.layout.height) || 450, geometry.shown);
    var out = {};
    var root = document.documentElement;
    root.dataset.theme = "light";
    return window.siteFigures.plot(gd, figure, geometry).then(function () {
      out.height = gd._fullLayout.height;
      out.pressedLight = pressed();
      return svg(gd);
    }).then(function (light) {
      out.light = light;
      root.dataset.theme = "dark";
      out.pressedDark = pressed();
      return window.Plotly.relayout(gd, window.siteTheme.darkUpdate(gd));
    }).then(function () {
      return svg(gd);
    }).then(function (dark) {
      out.dark = dark;
      root.dataset.theme = "light";
      unmount(gd);
      return out;
    });
  }

  // A printed figure is at most this tall (CSS px; an A4 page holds about 1000 below its margins):
  // with its caption it then takes at most half a page. A figure with many rows (a heatmap's, a horizontal
  // bar chart's) keeps ROW_PX for each, so that no row label is dropped.
  var PRINT_HEIGHT = { 1: 420, 2: 340, 3: 300 };  // by states to a row
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

  // Categories along each x axis of vertical bars or a heatmap's columns given as words: on paper each is labelled
  // (plotly labels every other one of a crowded axis; a reader cannot then find "money" among 20 bars).
  var MOST_CATEGORIES = 40;
  function categoriesPerAxis(figure) {
    var perAxis = {};
    (figure.data || []).forEach(function (t) {
      var vertical = t.type === "bar" && t.orientation !== "h";
      if ((vertical || t.type === "heatmap") && Array.isArray(t.x) && t.x.some(function (v) { return typeof v === "string"; })) {
        var axis = t.xaxis || "x";
        perAxis[axis] = Math.max(perAxis[axis] || 0, t.x.length);
      }
    });
    return perAxis;
  }

  function labelEveryCategory(figure) {
    var perAxis = categoriesPerAxis(figure);
    Object.keys(perAxis).forEach(function (axis) {
      if (perAxis[axis] > MOST_CATEGORIES) return;
      var name = "xaxis" + axis.slice(1);
      figure.layout[name] = Object.assign({}, figure.layout[name], { tickmode: "linear", tick0: 0, dtick: 1 });
    });
  }

  // The printed height: the declared one, or the figure's own, capped, with a label for every row.
  function forPrint(figure, declared, columns) {
    var layout = figure.layout;
    var height = layout.height || 450;
    var m = layout.margin || {};
    var perAxis = rowsPerAxis(figure);
    var rows = Object.keys(perAxis).reduce(function (n, axis) { return n + perAxis[axis]; }, 0);
    var least = (m.t === undefined ? 100 : m.t) + (m.b === undefined ? 80 : m.b) + ROW_PX * rows;
    var printed = declared || Math.min(height, Math.max(PRINT_HEIGHT[columns] || 300, least));
    if (printed < height) {
      // plotly drops every other label of a crowded axis: a label for every row
      Object.keys(perAxis).forEach(function (axis) {
        var name = "yaxis" + axis.slice(1);
        layout[name] = Object.assign({}, layout[name], { tickmode: "linear", tick0: 0, dtick: 1 });
      });
    }
    layout.height = printed;
    return printed;
  }

  // On paper no text is smaller than `least` px (7 pt at the size the handout prints the state,
  // sitebuild.figures.forms.least_px). Every font the figure sets is raised to it; a text holding <sub> or
  // <sup> (plotly draws them at 70 % of their text) to least / 0.7; a bar's value, which plotly shrinks to fit its
  // bar, is left off where it would shrink below it (its number is in the figure's CSV); a log axis's ticks to
  // least / 0.75 (plotly labels the ticks between powers of ten at 75 % of the axis's font). A heatmap's numbers,
  // which plotly sizes to their cells, are raised to least px once drawn where it sized them smaller
  // (raiseHeatmapNumbers).
  var SCRIPT = 0.7, LOG_MINOR = 0.75;
  var FONT_KEYS = { font: 1, tickfont: 1, textfont: 1, insidetextfont: 1, outsidetextfont: 1 };

  function scripted(value) {
    return Array.isArray(value) ? value.some(scripted) : typeof value === "string" && /<su[bp]>/i.test(value);
  }

  function atLeast(font, size) {
    var out = Object.assign({}, font);
    if (!(typeof out.size === "number" && out.size >= size)) out.size = size;
    return out;
  }

  function raiseFonts(node, least) {
    if (Array.isArray(node)) { node.forEach(function (x) { raiseFonts(x, least); }); return; }
    if (!node || typeof node !== "object") return;
    Object.keys(node).forEach(function (key) {
      var value = node[key];
      if (FONT_KEYS[key] && value && typeof value === "object" && !Array.isArray(value) &&
          typeof value.size === "number" && value.size < least) {
        node[key] = atLeast(value, least);
      } else {
        raiseFonts(value, least);
      }
    });
  }

  function axisName(ref) { return ref.replace(/^([xy])(\d*)$/, "$1axis$2"); }

  function legible(figure, least) {
    var layout = figure.layout, big = least / SCRIPT;
    layout.font = atLeast(layout.font, least);
    raiseFonts(layout, least);
    raiseFonts(figure.data || [], least);
    var title = layout.title;
    if (title && scripted(typeof title === "string" ? title : title.text)) {
      layout.title = Object.assign({}, typeof title === "string" ? { text: title } : title);
      layout.title.font = atLeast(layout.title.font, big);
    }
    (layout.annotations || []).forEach(function (a) { if (scripted(a.text)) a.font = atLeast(a.font || layout.font, big); });
    var scriptedTicks = {};
    (figure.data || []).forEach(function (t) {
      if (scripted(t.x)) scriptedTicks[axisName(t.xaxis || "x")] = 1;
      if (scripted(t.y)) scriptedTicks[axisName(t.yaxis || "y")] = 1;
      if (scripted(t.text) || scripted(t.texttemplate)) t.textfont = atLeast(t.textfont, big);
      if (scripted(t.name)) layout.legend = Object.assign({}, layout.legend, { font: atLeast((layout.legend || {}).font, big) });
    });
    Object.keys(layout).forEach(function (key) {
      if (!/^[xy]axis\d*$/.test(key) || !layout[key]) return;
      var axis = layout[key], label = axis.title && (typeof axis.title === "string" ? axis.title : axis.title.text);
      if (scriptedTicks[key] || scripted(axis.ticktext)) axis.tickfont = atLeast(axis.tickfont, big);
      if (axis.type === "log") axis.tickfont = atLeast(axis.tickfont, least / LOG_MINOR);
      if (scripted(label)) {
        axis.title = Object.assign({}, typeof axis.title === "string" ? { text: axis.title } : axis.title);
        axis.title.font = atLeast(axis.title.font, big);
      }
    });
    layout.uniformtext = { mode: "hide", minsize: least };
  }

  function raiseHeatmapNumbers(gd, least) {
    var small = [];
    gd.querySelectorAll("g.hm").forEach(function (g) {
      var trace = g.__data__ && g.__data__[0] && g.__data__[0].trace;
      var sizes = Array.prototype.map.call(g.querySelectorAll("g.heatmap-label text"), function (t) {
        return parseFloat(getComputedStyle(t).fontSize);
      });
      if (trace && sizes.length && Math.min.apply(null, sizes) < least && small.indexOf(trace.index) < 0) small.push(trace.index);
    });
    return small.length ? window.Plotly.restyle(gd, { "textfont.size": least }, small) : Promise.resolve();
  }

  // The smallest text a drawn figure shows, in px of the figure: its size and what it says.
  function smallestText(gd) {
    var root = gd.querySelector("svg.main-svg"), smallest = { size: Infinity, text: "" };
    if (!root) return smallest;
    var base = root.getScreenCTM().inverse();
    gd.querySelectorAll("svg text, svg tspan").forEach(function (el) {
      var own = Array.prototype.filter.call(el.childNodes, function (n) { return n.nodeType === 3; })
        .map(function (n) { return n.nodeValue; }).join("").trim();
      if (!own || !el.getClientRects().length) return;
      var m = base.multiply(el.getScreenCTM());
      var size = parseFloat(getComputedStyle(el).fontSize) * Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
      if (size < smallest.size) smallest = { size: Math.round(size * 100) / 100, text: own };
    });
    return smallest;
  }

  // Titles (the figure's, a subplot's, an axis's) that cover a tick label: [title, tick label] pairs. Words set
  // at a slant are left out (the box around a slanted word is wider than the word); upright and quarter-turned
  // words' boxes are the words'.
  function titlesOverTicks(gd) {
    function words(selector) {
      return Array.prototype.filter.call(gd.querySelectorAll(selector), function (t) {
        var turn = /rotate\(\s*(-?[\d.]+)/.exec(t.getAttribute("transform") || "");
        return t.textContent.trim() && t.getClientRects().length && !(turn && parseFloat(turn[1]) % 90);
      }).map(function (t) { return [t.getBoundingClientRect(), t.textContent.trim()]; });
    }
    var over = function (a, b) {
      return a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    };
    var ticks = words(".xtick text, .ytick text"), found = [];
    words(".gtitle, .annotation-text, .xtitle, .ytitle").forEach(function (title) {
      ticks.forEach(function (tick) { if (over(title[0], tick[0])) found.push([title[1], tick[1]]); });
    });
    return found;
  }

  // What a click on a button or a drag to a slider step runs (plotly's own controls do the same).
  function run(gd, control) {
    var method = control.method, args = clone(control.args || []);
    if (!method || method === "skip" || control.execute === false) return Promise.resolve();
    if (method === "animate") {  // straight to the frame: no transition on paper
      var options = Object.assign({}, args[1] || {}, {
        mode: "immediate", transition: { duration: 0 }, frame: { duration: 0, redraw: true },
      });
      return window.Plotly.animate(gd, args[0], options);
    }
    return window.Plotly[method].apply(null, [gd].concat(args));
  }

  function plain(value) {
    if (value === null || value === undefined) return null;
    if (ArrayBuffer.isView(value)) return Array.from(value);
    if (Array.isArray(value)) return value.map(plain);
    return value;
  }

  // The title the figure gives an axis (plotly's full layout holds a placeholder for an axis without one).
  function axisTitle(layout, ref) {
    var axis = layout[ref.replace(/^([xy])(\d*)$/, "$1axis$2")];
    var title = axis && axis.title;
    return (typeof title === "string" ? title : title && title.text) || "";
  }

  // The numbers a state plots: every visible trace as plotly holds it once drawn.
  function traces(gd) {
    var layout = gd.layout;
    return gd._fullData.filter(function (t) { return t.visible === true; }).map(function (t) {
      var xaxis = t.xaxis || "x", yaxis = t.yaxis || "y";
      return {
        index: t.index, type: t.type, name: t.name || "", orientation: t.orientation || "",
        x: plain(t.x), y: plain(t.y), z: plain(t.z), text: plain(t.text),
        xaxis: xaxis, yaxis: yaxis, xtitle: axisTitle(layout, xaxis), ytitle: axisTitle(layout, yaxis),
      };
    });
  }

  // On paper the room the controls took stays empty: a band between the title and the highest drawing below it,
  // and one under the lowest drawing. Both are closed, down to GAP px, and the plot takes the room.
  var GAP = 10;

  function tighten(gd) {
    var full = gd._fullLayout, box = gd.getBoundingClientRect();
    var title = gd.querySelector(".g-gtitle .gtitle");
    var below = title ? title.getBoundingClientRect().bottom - box.top : 0;
    var top = Infinity, bottom = 0;
    gd.querySelectorAll(".main-svg > *:not(rect) text, .main-svg .bg, .main-svg .legend, .main-svg .cbbg, " +
                        ".main-svg .nsewdrag").forEach(function (el) {
      if (title && (el === title || title.contains(el))) return;
      var r = el.getBoundingClientRect();
      if (!r.width || !r.height) return;
      top = Math.min(top, r.top - box.top);
      bottom = Math.max(bottom, r.bottom - box.top);
    });
    if (top === Infinity) return Promise.resolve();
    var m = full.margin, cutTop = Math.max(0, Math.floor(top - below - GAP)), cutBottom = Math.max(0, Math.floor(full.height - bottom - GAP));
    cutTop = Math.min(cutTop, m.t);
    cutBottom = Math.min(cutBottom, m.b);
    if (cutTop < 4 && cutBottom < 4) return Promise.resolve();
    return window.Plotly.relayout(gd, { "margin.t": m.t - cutTop, "margin.b": m.b - cutBottom });
  }

  // A title wider than the printed state is broken into lines at spaces (plotly never wraps one).
  var canvas = null;
  function textWidth(text, font) {
    canvas = canvas || document.createElement("canvas").getContext("2d");
    canvas.font = (font.size || 13) + "px " + (font.family || "sans-serif");
    return canvas.measureText(text).width;
  }

  function wrapTitle(gd) {
    var full = gd._fullLayout, title = gd.layout.title;
    var text = title && (typeof title === "string" ? title : title.text);
    if (!text || /<br>/i.test(text)) return Promise.resolve();
    var room = full.width - 16, font = full.title.font;
    var lines = [], line = "";
    text.split(" ").forEach(function (word) {
      var next = line ? line + " " + word : word;
      if (line && textWidth(next.replace(/<[^>]+>/g, ""), font) > room) {
        lines.push(line);
        line = word;
      } else {
        line = next;
      }
    });
    lines.push(line);
    if (lines.length < 2) return Promise.resolve();
    // Hung from the top, a second line grows downwards; plotly sets a wrapped title's first baseline (not its
    // top) at the anchor, so the pad holds the first line's ascent.
    return window.Plotly.relayout(gd, {
      "title.text": lines.join("<br>"), "title.yref": "container", "title.y": 1, "title.yanchor": "top",
      "title.pad.t": Math.round(4 + 0.85 * (font.size || 13)),
    });
  }

  function printed(spec, job, state) {
    var figure = clone(spec);
    var menus = figure.layout.updatemenus || [], sliders = figure.layout.sliders || [];
    figure.layout.updatemenus = [];
    figure.layout.sliders = [];
    var height = forPrint(figure, job.height, job.columns);
    labelEveryCategory(figure);
    legible(figure, job.least);
    var gd = mount(job.width, height, job.width);
    var out = {};
    return window.siteFigures.plot(gd, figure, { width: job.width, shown: job.width }).then(function () {
      return state.steps.reduce(function (done, step) {
        var control = step[0] === "menu" ? menus[step[1]].buttons[step[2]] : sliders[step[1]].steps[step[2]];
        return done.then(function () { return run(gd, control); });
      }, Promise.resolve());
    }).then(function () {
      var layout = gd.layout;  // a control's arguments may have set one of them again
      if ((layout.updatemenus || []).length || (layout.sliders || []).length) {
        return window.Plotly.relayout(gd, { updatemenus: [], sliders: [] });
      }
    }).then(function () {
      return raiseHeatmapNumbers(gd, job.least);
    }).then(function () {
      return wrapTitle(gd);
    }).then(function () {
      return tighten(gd);
    }).then(function () {
      out.height = gd._fullLayout.height;
      out.data = traces(gd);
      out.smallest = smallestText(gd);
      out.crowded = titlesOverTicks(gd);
      return svg(gd);
    }).then(function (image) {
      out.svg = image;
      unmount(gd);
      return out;
    });
  }

  window.renderFigure = function (job) {
    var spec = job.spec, out = { web: {}, print: [] };
    var names = Object.keys(job.web);
    return names.reduce(function (done, name) {
      return done.then(function () { return web(spec, job.web[name]); }).then(function (r) { out.web[name] = r; });
    }, Promise.resolve()).then(function () {
      return job.print.states.reduce(function (done, state) {
        return done.then(function () { return printed(spec, job.print, state); }).then(function (r) { out.print.push(r); });
      }, Promise.resolve());
    }).then(function () { return out; });
  };

  window.rasterize = function (svgText, scale) {
    var img = new Image();
    img.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svgText);
    return img.decode().then(function () {
      var canvas = document.createElement("canvas");
      canvas.width = Math.round(img.naturalWidth * scale);
      canvas.height = Math.round(img.naturalHeight * scale);
      var ctx = canvas.getContext("2d");
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
      return canvas.toDataURL("image/png");
    });
  };
})();
