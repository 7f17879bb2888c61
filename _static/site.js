// The site's behaviour: the page's colour mode, the narrow screen's drawers, the section being read, figures
// resized to their column, the whole page laid out after the first screen, search snippets, wide matrices.

// The colour mode (sitebuild/theme sets it in <head>): the header's button goes system -> light -> dark -> system,
// the choice is kept (localStorage "mode"), and while it is "system" the page follows the system as it changes.
(function () {
  var root = document.documentElement, dark = matchMedia("(prefers-color-scheme: dark)");
  var NAMES = { auto: "as the system", light: "light", dark: "dark" }, NEXT = { auto: "light", light: "dark", dark: "auto" };
  function apply(mode) {
    if (root.dataset.mode !== mode) root.dataset.mode = mode;
    var theme = mode === "auto" ? (dark.matches ? "dark" : "light") : mode;
    if (root.dataset.theme !== theme) root.dataset.theme = theme;
    document.querySelectorAll(".mode-switch").forEach(function (b) {
      var words = "Colour mode: " + NAMES[mode];
      b.setAttribute("aria-label", words);
      b.title = words;
    });
  }
  function stored() {
    try { return localStorage.getItem("mode") || "auto"; } catch (e) { return "auto"; }
  }
  dark.addEventListener("change", function () { if (stored() === "auto") apply("auto"); });
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest(".mode-switch");
    if (!button) return;
    var mode = NEXT[root.dataset.mode] || "auto";
    try { localStorage.setItem("mode", mode); } catch (e) { /* kept for the page alone */ }
    apply(mode);
  });
  document.addEventListener("DOMContentLoaded", function () { apply(stored() in NAMES ? stored() : "auto"); });
})();

// The whole page laid out, once its first screen is drawn. Until then site.css lets the browser skip the
// style and layout of a lesson's sections off screen (content-visibility), so the first screen paints sooner.
// A skipped section has a guessed height: laid out while the reader is still at the first screen, every
// height is true before the reader scrolls or a script measures where something is.
// window.sitePageLaidOut resolves when it is done.
(function () {
  var root = document.documentElement;
  window.sitePageLaidOut = new Promise(function (done) {
    // What the reader is looking at stays where it is: the sections above it may have had guessed heights.
    // The browser's own scroll anchoring was seen to fail here (a link to a late section, once laid out,
    // moved it thousands of px), so it is turned off for the change and done by hand.
    function layOut() {
      var article = document.querySelector(".bd-article");
      var box = article && article.getBoundingClientRect();
      var anchor = box && document.elementFromPoint(box.left + box.width / 2, window.innerHeight / 2);
      var before = anchor && anchor.getBoundingClientRect().top;
      var anchoring = root.style.overflowAnchor;
      root.style.overflowAnchor = "none";
      root.classList.add("page-laid-out");
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - before);
      requestAnimationFrame(function () {
        root.style.overflowAnchor = anchoring;
        done();
      });
    }
    function whenIdle() {
      if (window.requestIdleCallback) window.requestIdleCallback(layOut, { timeout: 1000 });
      else setTimeout(layOut, 0);
    }
    function afterFirstScreen() {
      var figures = window.siteFigures && window.siteFigures.firstScreen();
      Promise.resolve(figures).then(whenIdle, whenIdle);
    }
    if (document.readyState === "complete") afterFirstScreen();
    else window.addEventListener("load", afterFirstScreen);
  });
})();

// A box's module (the live box, the circuit box, the training box) is imported once the first screen is painted:
// the box's markup names it in an inert tag (script.box-module, data-src relative to the page:
// compute/present/widgets.py box_module), so that opening the page starts no request for it, nor for the modules
// it imports, before the first paint.
// A box's form is answered by its module and never sent (sent, it reloads the page). Each module sets its handlers
// as it is evaluated and prevents its form's submit; one submitted before the modules are in (a reader quick to
// press Train, a slow network) is held and made again once they are.
(function () {
  var settled = false, held = new Map();   // form -> the button that submitted it
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (ev.defaultPrevented || !form.matches('[data-part="form"]')) return;
    ev.preventDefault();
    if (!settled) held.set(form, ev.submitter);
  });
  function load() {
    var imports = Array.prototype.map.call(document.querySelectorAll("script.box-module[data-src]"), function (tag) {
      return import(new URL(tag.dataset.src, document.baseURI).href).catch(function (error) { console.error(error); });
    });
    Promise.all(imports).then(function () {
      settled = true;
      held.forEach(function (submitter, form) { form.requestSubmit(submitter || undefined); });
      held.clear();
    });
  }
  requestAnimationFrame(function () { setTimeout(load, 0); });
})();

// On a narrow screen the lessons (header button) and the page's sections (button above the article) open as
// drawers; Escape, a second press, or following a link closes them.
(function () {
  var root = document.documentElement;
  var DRAWERS = { "primary-toggle": "show-lessons", "secondary-toggle": "show-sections" };
  function close() {
    Object.keys(DRAWERS).forEach(function (cls) {
      root.classList.remove(DRAWERS[cls]);
      document.querySelectorAll("." + cls).forEach(function (b) { b.setAttribute("aria-expanded", "false"); });
    });
  }
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest(".primary-toggle, .secondary-toggle");
    if (button) {
      var cls = button.classList.contains("primary-toggle") ? "primary-toggle" : "secondary-toggle";
      var open = !root.classList.contains(DRAWERS[cls]);
      close();
      if (open) {
        root.classList.add(DRAWERS[cls]);
        button.setAttribute("aria-expanded", "true");
        var first = document.querySelector(cls === "primary-toggle" ? ".bd-sidebar-primary a" : ".bd-sidebar-secondary a");
        if (first) first.focus();
      }
    } else if (ev.target.closest && ev.target.closest(".bd-sidebar-primary a, .bd-sidebar-secondary a")) {
      close();
    }
  });
  document.addEventListener("keydown", function (ev) { if (ev.key === "Escape") close(); });
})();

// The contents list marks the section being read (the last heading above the top third of the screen) and, when
// the list is taller than its column, scrolls itself to keep that entry in view.
(function () {
  var pending = false;
  // Until the page is laid out (below), a section off screen is skipped: asking where something inside it is would
  // lay it out, so a skipped section's place stands for what it holds.
  function shown(target) {
    return target.checkVisibility({ contentVisibilityAuto: true }) ? target
      : target.closest(".bd-article > section > section") || target;
  }
  function mark() {
    pending = false;
    var side = document.querySelector(".bd-sidebar-secondary");
    if (!side) return;
    var links = [].slice.call(side.querySelectorAll(".toc-entry > a[href^='#']"));
    var line = window.innerHeight / 3, current = null;
    links.forEach(function (a) {
      var target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
      if (target && shown(target).getBoundingClientRect().top <= line) current = a;
    });
    links.forEach(function (a) {
      var on = a === current || (current && a.parentNode.contains(current) && a !== current);
      a.classList.toggle("active", !!on);
      if (a === current) a.setAttribute("aria-current", "location"); else a.removeAttribute("aria-current");
    });
    if (!current || side.scrollHeight <= side.clientHeight) return;
    var link = current.getBoundingClientRect(), box = side.getBoundingClientRect();
    if (link.top < box.top || link.bottom > box.bottom) side.scrollTop += link.top - box.top - side.clientHeight / 2;
  }
  function soon() {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(mark);
    }
  }
  window.addEventListener("scroll", soon, { passive: true });
  // not before the first paint: asking where the headings are would lay the page out first
  window.sitePageLaidOut.then(soon);
})();

// Resize drawn plotly figures whose width no longer fits their box, once the
// theme has laid the page out and again when the theme mode (light/dark)
// changes: plotly sizes a figure when it is drawn, which can be before the
// sidebars take their place.
(function () {
  function resizeFigures() {
    if (!window.Plotly) return;
    document.querySelectorAll(".plotly-graph-div").forEach(function (gd) {
      if (gd._fullLayout && gd._fullLayout.width !== gd.clientWidth) window.Plotly.Plots.resize(gd);
    });
  }
  window.addEventListener("load", resizeFigures);
  new MutationObserver(resizeFigures).observe(document.documentElement, {
    attributes: true,
    attributeFilter: ["data-theme", "data-mode"],
  });
})();

// Search result snippets: Sphinx takes them from the whole <main>, where the contents button, the handout links
// and previous/next come with the article; drop them and squeeze the whitespace.
document.addEventListener("DOMContentLoaded", function () {
  if (typeof Search === "undefined" || !Search.htmlToText) return;
  var htmlToText = Search.htmlToText;
  Search.htmlToText = function (html, anchor) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    doc.querySelectorAll(".bd-header-article, .bd-sidebar-secondary, .prev-next-area, .handout-link")
      .forEach(function (el) { el.remove(); });
    var text = htmlToText(doc.documentElement.outerHTML, anchor);
    return text.replace(/\s+/g, " ").trim();
  };
});

// A matrix or a figure too wide for the column scrolls sideways; keyboard users need to focus it to scroll it
// (axe scrollable-region-focusable). Only wrappers that actually scroll join the Tab order.
(function () {
  function focusableMatrices() {
    var SCROLLERS = ".matrix-wrap, .figure-scroll, .table-wrap, mjx-container[display='true'], .highlight > pre";
    document.querySelectorAll(SCROLLERS).forEach(function (wrap) {
      // not in a closed <details>, nor in a section skipped or left out until the page is laid out (below):
      // measuring it would lay out what the reader does not see (and fetch its pictures)
      if (wrap.closest("details:not([open])") || !wrap.checkVisibility({ contentVisibilityAuto: true })) return;
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        var caption = wrap.querySelector("caption");
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", caption ? caption.textContent.trim()
                          : wrap.classList.contains("figure-scroll") ? "figure, scrolls sideways"
                          : wrap.matches("mjx-container") ? "equation, scrolls sideways"
                          : wrap.matches("pre") ? "code, scrolls sideways" : "matrix");
      } else if (wrap.getAttribute("tabindex") === "0") {
        ["tabindex", "role", "aria-label"].forEach(function (a) { wrap.removeAttribute(a); });
      }
    });
  }
  // Once the page is laid out, every section at its true width: measured before the first paint, the wrappers
  // (and asking whether each is shown) laid the whole page out first.
  window.sitePageLaidOut.then(focusableMatrices);
  document.addEventListener("toggle", function (ev) {                           // a <details> opened
    if (ev.target.open) focusableMatrices();
  }, true);
  window.addEventListener("resize", focusableMatrices);
})();
