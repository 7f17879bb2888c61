// Figure colours follow the page's light/dark mode.
// The figures are built in Python with a light template; in dark mode this
// relayouts each one with a transparent background and light text, grid and
// control colours, and back again in light mode. Data colours (viridis) stay.
//
// A figure's light colours are the ones it was drawn with: before its first
// dark relayout they are kept, and light mode puts exactly those back. A figure
// is relayouted only when the mode changes: the theme's own script sets
// data-theme again, to the value it has, once the page is loaded, and a
// relayout then (not awaited by anything) could land while the page prints.
(function () {
  var DARK = { text: "#d6dbe1", grid: "#3a4049", line: "#8a949f", panel: "rgba(0,0,0,0)", control: "#30353d", active: "#5b6573" };

  function isDark() {
    return document.documentElement.dataset.theme === "dark";
  }

  function dark(gd) {
    var c = DARK;
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

  // The value at a relayout path ("xaxis.title.font.color", "updatemenus[0].bgcolor") of the drawn layout.
  function valueAt(layout, path) {
    return path.replace(/\[(\d+)\]/g, ".$1").split(".").reduce(function (o, key) {
      return o === undefined || o === null ? undefined : o[key];
    }, layout);
  }

  // The figure's own colours for every key the dark update sets, kept the first time it goes dark.
  function keepLight(gd, update) {
    if (!gd._lightColours) {
      gd._lightColours = {};
      Object.keys(update).forEach(function (key) {
        var value = valueAt(gd._fullLayout, key);
        gd._lightColours[key] = value === undefined ? null : value;  // null: plotly's default, as drawn
      });
    }
  }

  // Resolves once the figure has the mode's colours.
  function setMode(gd, toDark) {
    if (!gd._fullLayout || !!gd._darkColours === toDark) return Promise.resolve();
    gd._darkColours = toDark;
    if (toDark) {
      var update = dark(gd);
      keepLight(gd, update);
      return window.Plotly.relayout(gd, update);
    }
    return window.Plotly.relayout(gd, gd._lightColours);
  }

  function applyMode() {
    if (!window.Plotly) return;
    var toDark = isDark();
    document.querySelectorAll(".plotly-graph-div").forEach(function (gd) { setMode(gd, toDark); });
  }

  // Figures are drawn light (_static/figures.js, as the reader nears each):
  // on a dark page a newly drawn figure needs a relayout.
  document.addEventListener("figure-drawn", function (ev) {
    if (isDark()) setMode(ev.target, true);
  });
  // figures.js gives a newly drawn figure the page's colours before showing it (follow); the build draws each
  // figure's dark picture with the same colours (sitebuild/figures/render.js, darkUpdate).
  window.siteTheme = {
    darkUpdate: dark,
    follow: function (gd) { return setMode(gd, isDark()); },
  };
  new MutationObserver(applyMode).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme"],
  });
})();
