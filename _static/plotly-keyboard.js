// Keyboard access to Plotly's own controls, which are SVG and not focusable.
// Loaded after plotly.js and figures.js on pages with figures (sitebuild/pages/extension.py).
//
// * updatemenu buttons (switches, ▶ Play): Tab reaches them (role=button);
//   so does the header of a row folded into a drop-down on a narrow screen;
//   Enter or Space sends the click that Plotly listens for, so a key does
//   exactly what the mouse does.
// * sliders: Tab reaches them (role=slider); Left/Right/Home/End move to a
//   step and run that step's own method and args (as Plotly does on a drag),
//   then store the step as the slider's active one so the grip follows.
//
// Plotly redraws its controls on every change, so the attributes are set
// again after each draw; a key handler is attached once per element.
(function () {
  "use strict";

  // Enter or Space sends the click plotly listens for (once per element: plotly redraws its controls).
  function clickOnEnter(el) {
    if (el.dataset.keyboard) return;
    el.dataset.keyboard = "1";
    el.addEventListener("keydown", function (ev) {
      if (ev.key !== "Enter" && ev.key !== " ") return;
      ev.preventDefault();
      el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
    });
  }

  function menuButtons(gd) {
    gd.querySelectorAll(".updatemenu-button, .updatemenu-dropdown-button").forEach(function (el) {
      var button = el.__data__, menu = el.parentNode.__data__;  // d3 data: plotly's options
      if (!button || !menu) return;
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", el.textContent.trim() || button.label || "button");
      var full = gd._fullLayout.updatemenus[menu._index];
      if (full && full.showactive) {
        el.setAttribute("aria-pressed", String(full.active === button._index));
      }
      clickOnEnter(el);
    });
  }

  // A row folded into a drop-down (plotly-menus.js): its header opens and closes the list.
  function menuHeaders(gd) {
    gd.querySelectorAll(".updatemenu-header").forEach(function (el) {
      var menu = el.parentNode.__data__;
      if (!menu) return;
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-haspopup", "true");
      el.setAttribute("aria-expanded", String(gd.querySelector(".updatemenu-dropdown-button") !== null));
      el.setAttribute("aria-label", (el.textContent.trim() || "menu") + ", choose another");
      clickOnEnter(el);
    });
  }

  function sliders(gd) {
    gd.querySelectorAll(".slider-group").forEach(function (el) {
      var opts = el.__data__;
      if (!opts) return;
      var i = opts._index, steps = gd.layout.sliders[i].steps, k = opts.active || 0;
      var prefix = (opts.currentvalue && opts.currentvalue.prefix) || "";
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "slider");
      el.setAttribute("aria-label", prefix.replace(/[:=\s]+$/, "") || "slider");
      el.setAttribute("aria-valuemin", "0");
      el.setAttribute("aria-valuemax", String(steps.length - 1));
      el.setAttribute("aria-valuenow", String(k));
      el.setAttribute("aria-valuetext", steps[k].label || "step " + (k + 1) + " of " + steps.length);
      if (el.dataset.keyboard) return;
      el.dataset.keyboard = "1";
      el.addEventListener("keydown", function (ev) {
        var opts = el.__data__, i = opts._index, steps = gd.layout.sliders[i].steps;
        var now = opts.active || 0, last = steps.length - 1;
        var to = { ArrowRight: now + 1, ArrowUp: now + 1, ArrowLeft: now - 1, ArrowDown: now - 1,
                   Home: 0, End: last }[ev.key];
        if (to === undefined) return;
        ev.preventDefault();
        to = Math.max(0, Math.min(last, to));
        if (to === now) return;
        var step = steps[to], update = {};
        update["sliders[" + i + "].active"] = to;
        window.Plotly.relayout(gd, update).then(function () {
          // What Plotly's slider runs on a drag: Plotly[method](gd, ...args).
          if (step.method && step.method !== "skip" && step.execute !== false) {
            return window.Plotly[step.method].apply(null, [gd].concat(step.args || []));
          }
        }).then(function () { sync(gd); });
      });
    });
  }

  function sync(gd) {
    if (!gd._fullLayout) return;
    menuButtons(gd);
    menuHeaders(gd);
    sliders(gd);
  }

  function watch(gd) {
    if (gd.dataset.keyboardWatch) return;
    gd.dataset.keyboardWatch = "1";
    ["plotly_afterplot", "plotly_animated", "plotly_sliderchange", "plotly_buttonclicked"].forEach(function (name) {
      gd.on(name, function () { sync(gd); });
    });
    sync(gd);
  }

  // _static/figures.js draws each figure as the reader nears it and then
  // fires "figure-drawn" on its div.
  document.addEventListener("figure-drawn", function (ev) {
    watch(ev.target);
  });
})();
