// Figure colours follow the page's light/dark mode.
// The figures are built in Python with a light template; in dark mode this
// relayouts each one with a transparent background and light text, grid and
// control colours, and back again in light mode. Data colours (viridis) stay.
(function () {
  var LIGHT = { text: "#2a3f5f", grid: "#e5ecf6", line: "#8c9aad", panel: "#ffffff", control: "#f3f4f7", active: "#f4faff" };
  var DARK = { text: "#d6dbe1", grid: "#3a4049", line: "#8a949f", panel: "rgba(0,0,0,0)", control: "#30353d", active: "#5b6573" };

  function isDark() {
    return document.documentElement.dataset.theme === "dark";
  }

  function colours(gd, c) {
    var update = {
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: c.panel,
      "font.color": c.text,
      "title.font.color": c.text,
    };
    Object.keys(gd._fullLayout).forEach(function (key) {
      if (/^[xy]axis\d*$/.test(key)) {
        update[key + ".gridcolor"] = c.grid;
        update[key + ".linecolor"] = c.line;
        update[key + ".zerolinecolor"] = c.grid;
        update[key + ".tickfont.color"] = c.text;
        update[key + ".title.font.color"] = c.text;
      }
    });
    (gd.layout.updatemenus || []).forEach(function (_, i) {
      update["updatemenus[" + i + "].bgcolor"] = c.control;
      update["updatemenus[" + i + "].font.color"] = c.text;
      update["updatemenus[" + i + "].activecolor"] = c.active;
    });
    (gd.layout.sliders || []).forEach(function (_, i) {
      update["sliders[" + i + "].font.color"] = c.text;
      update["sliders[" + i + "].bgcolor"] = c.control;
      update["sliders[" + i + "].activebgcolor"] = c.active;
    });
    return update;
  }

  function applyMode() {
    if (!window.Plotly) return;
    var c = isDark() ? DARK : LIGHT;
    document.querySelectorAll(".plotly-graph-div").forEach(function (gd) {
      if (gd._fullLayout) window.Plotly.relayout(gd, colours(gd, c));
    });
  }

  // Figures are drawn light (_static/figures.js, as the reader nears each):
  // on a dark page a newly drawn figure needs a relayout.
  document.addEventListener("figure-drawn", function (ev) {
    if (isDark()) window.Plotly.relayout(ev.target, colours(ev.target, DARK));
  });
  new MutationObserver(applyMode).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme"],
  });
})();
