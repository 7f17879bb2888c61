// Each cell's arithmetic, for every reader: a table figure whose cells carry
// their arithmetic (a heatmap with customdata shown on hover) has a line
// below it (written by compute.present.figures.figure_html). Clicking or
// tapping a cell writes that cell's arithmetic there and outlines the cell,
// so a touch screen, which has no hover, shows it too. The
// "Show the arithmetic" button shows the chosen cell (at first the one the
// figure names in layout.meta.inspect, else the first); with the button
// focused, the arrow keys move to the next cell. The line is a live region:
// a screen reader hears each new sum. When the figure's buttons switch to
// another table, the line follows, at the same row and column.
(function () {
  "use strict";

  function withArithmetic(trace) {
    return trace && trace.type === "heatmap" && Array.isArray(trace.customdata) &&
      /%\{customdata\}/.test(trace.hovertemplate || "");
  }

  function inspectable(gd) {
    return (gd.data || []).some(withArithmetic);
  }

  function label(values, k) {
    return values && values[k] !== undefined ? String(values[k]) : String(k + 1);
  }

  // The cell's hover text: the trace's hovertemplate with %{customdata}, %{x}, %{y}, %{z} and %{text}
  // filled in (a number format such as %{z:.3f} is kept), as plotly shows it on hover.
  function hoverText(trace, row, col) {
    var z = trace.z && trace.z[row] ? trace.z[row][col] : null;
    var values = {
      customdata: trace.customdata[row][col], x: label(trace.x, col), y: label(trace.y, row), z: z,
      text: trace.text && trace.text[row] ? trace.text[row][col] : "",
    };
    return String(trace.hovertemplate).replace(/<extra>.*?<\/extra>/g, "")
      .replace(/%\{(\w+)(?::\.(\d+)f)?\}/g, function (whole, name, digits) {
        var v = values[name];
        if (v === null || v === undefined) return "";
        if (typeof v !== "number") return String(v);
        return digits !== undefined ? v.toFixed(Number(digits)) : String(Math.round(v * 1000) / 1000);
      });
  }

  // The box under the figure is in the page from the start (compute.present.figures.figure_html), so
  // nothing moves when the figure is drawn; its button draws the figure first if need be.
  function attach(box) {
    var gd = document.getElementById(box.getAttribute("data-for"));
    var button = box.querySelector("button"), out = box.querySelector("output");
    if (!gd || !button || !out) return;
    var cell = null;  // {trace, row, col}, set once the figure is drawn
    var shown = false;

    function ready() {
      if (cell) return true;
      if (!gd.data || !inspectable(gd)) return false;
      var meta = (gd.layout.meta && gd.layout.meta.inspect) || [0, 0];
      cell = { trace: gd.data.findIndex(withArithmetic), row: meta[0], col: meta[1] };
      gd.on("plotly_click", function (event) {
        var point = event.points && event.points[0];
        if (!point || !Array.isArray(point.pointNumber) || !withArithmetic(gd.data[point.curveNumber])) return;
        cell = { trace: point.curveNumber, row: point.pointNumber[0], col: point.pointNumber[1] };
        render();
      });
      // the figure's own buttons swap the table: show the same cell of the new one
      gd.on("plotly_update", function () { if (shown) render(); });
      gd.on("plotly_restyle", function () { if (shown) render(); });
      return true;
    }

    function size() {
      var rows = gd.data[cell.trace].customdata;
      return { rows: rows.length, cols: rows.length ? rows[0].length : 0 };
    }

    // the chosen cell, within the table shown now (tables differ in size; the choice is kept)
    function clamped() {
      var n = size();
      return { row: Math.max(0, Math.min(n.rows - 1, cell.row)), col: Math.max(0, Math.min(n.cols - 1, cell.col)) };
    }

    function render() {
      var n = size();
      if (!n.rows || !n.cols) return;
      var at = clamped();
      var trace = gd.data[cell.trace];
      var text = hoverText(trace, at.row, at.col);
      out.replaceChildren();
      text.split(/<br\s*\/?>/).forEach(function (line, k) {
        if (k) out.append(document.createElement("br"));
        // a label's subscript (e<sub>7</sub>, compute.present.notation) stays one; other markup goes
        line.split(/(<sub>.*?<\/sub>)/).forEach(function (part) {
          var sub = /^<sub>(.*)<\/sub>$/.exec(part);
          if (!sub) { out.append(part.replace(/<[^>]*>/g, "")); return; }
          var el = document.createElement("sub");
          el.textContent = sub[1].replace(/<[^>]*>/g, "");
          out.append(el);
        });
      });
      // red and dotted: not the magenta a lesson uses for its own outlines
      var outline = { type: "rect", xref: trace.xaxis || "x", yref: trace.yaxis || "y", x0: at.col - 0.5, x1: at.col + 0.5,
        y0: at.row - 0.5, y1: at.row + 0.5, line: { color: "#d62728", width: 3, dash: "dot" }, name: "inspected" };
      var own = (gd.layout.shapes || []).filter(function (shape) { return shape.name !== "inspected"; });
      window.Plotly.relayout(gd, { shapes: own.concat([outline]) });
      shown = true;
    }

    function showNow() {
      window.siteFigures.draw(gd).then(function () { if (ready()) render(); });
    }

    button.addEventListener("click", showNow);
    button.addEventListener("keydown", function (event) {
      var step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] }[event.key];
      if (!step || !ready()) return;
      event.preventDefault();
      var at = clamped();
      cell = { trace: cell.trace, row: at.row + step[0], col: at.col + step[1] };
      render();
    });
    gd.addEventListener("figure-drawn", ready);
  }

  document.querySelectorAll(".cell-inspect[data-for]").forEach(attach);
})();
