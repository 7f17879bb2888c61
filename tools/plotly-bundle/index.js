// plotly.js with only the trace types the lessons draw (scatter comes with
// the core). tests/test_vendor.py checks that every figure on the built site
// uses one of them.
'use strict';

var Plotly = require('plotly.js/lib/core');

Plotly.register([
    require('plotly.js/lib/bar'),
    require('plotly.js/lib/heatmap'),
]);

module.exports = Plotly;
