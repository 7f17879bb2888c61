// Replaces pydata-sphinx-theme's _static/scripts/fontawesome.js (files in
// html_static_path override the theme's own): that script, 1.5 MB (530 kB
// gzip) on every page, only turns icons into SVG "so that users can add custom
// icons". The theme's CSS already draws every icon it uses with the Font
// Awesome webfont, which it serves from _static/vendor/fontawesome/.
