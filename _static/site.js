// Site behaviour on top of sphinx-book-theme.

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

// Search result snippets: Sphinx takes them from the whole <main>, where the
// theme's header buttons come first ("System Settings Light Dark"); drop
// them and squeeze the whitespace.
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

// Accessibility fixes to the theme's markup and to wide matrices:
// * the sidebar search button reads "Search Ctrl+K" but is labelled "Search";
//   a label must contain the visible text (axe label-content-name-mismatch),
//   so the label is dropped and its text names it.
// * a matrix or a figure too wide for the column scrolls sideways; keyboard users
//   need to focus it to scroll it (axe scrollable-region-focusable). Only wrappers
//   that actually scroll join the Tab order.
(function () {
  function fixSearchButton() {
    document.querySelectorAll(".search-button-field[aria-label]").forEach(function (b) {
      b.removeAttribute("aria-label");
    });
  }
  function focusableMatrices() {
    document.querySelectorAll(".matrix-wrap, .figure-scroll").forEach(function (wrap) {
      if (wrap.scrollWidth > wrap.clientWidth + 1) {
        var caption = wrap.querySelector("caption");
        wrap.setAttribute("tabindex", "0");
        wrap.setAttribute("role", "region");
        wrap.setAttribute("aria-label", caption ? caption.textContent.trim()
                          : wrap.classList.contains("figure-scroll") ? "figure, scrolls sideways" : "matrix");
      } else if (wrap.getAttribute("tabindex") === "0") {
        ["tabindex", "role", "aria-label"].forEach(function (a) { wrap.removeAttribute(a); });
      }
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    fixSearchButton();
    focusableMatrices();
  });
  window.addEventListener("load", focusableMatrices);
  window.addEventListener("resize", focusableMatrices);
})();

// The page's contents list (right sidebar) marks the section being read, but
// the list is taller than the screen on long lessons and the theme never
// scrolls it: from about section 17 on the marked entry sat below its edge.
// The list now scrolls itself to keep the marked entry in view.
(function () {
  var pending = false;
  function followActive() {
    pending = false;
    var side = document.querySelector(".bd-sidebar-secondary");
    if (!side || side.scrollHeight <= side.clientHeight) return;
    var marked = side.querySelectorAll("a.active");
    if (!marked.length) return;
    var link = marked[marked.length - 1].getBoundingClientRect(), box = side.getBoundingClientRect();
    if (link.top < box.top || link.bottom > box.bottom) {
      side.scrollTop += link.top - box.top - side.clientHeight / 2;
    }
  }
  window.addEventListener("scroll", function () {
    if (!pending) {
      pending = true;
      window.requestAnimationFrame(function () { setTimeout(followActive, 50); }); // after the theme marks it
    }
  }, { passive: true });
})();
