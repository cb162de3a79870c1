// Pacman2's board for the replay page: drawBoard(svg, setup, frame).
// Cells are C px; walls from the judge's static bits (1 north, 2 east,
// 4 south, 8 west, 16 generator). Each player is a <g class="player">
// with data-seat, data-row, data-col, data-strength, data-alive.
function drawBoard(svg, setup, frame) {
  var C = 40;
  var w = setup.width, h = setup.height;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', '0 0 ' + (w * C) + ' ' + (h * C));
  svg.setAttribute('data-game', 'pacman2');
  function el(name, attrs, parent) { return svgElement(parent || svg, name, attrs); }
  el('rect', { x: 0, y: 0, width: w * C, height: h * C, fill: '#10131c' });
  var beamCells = {};
  frame.beams.forEach(function (b) {
    b[2].forEach(function (cell) { beamCells[cell] = b[0]; });
  });
  for (var i = 0; i < w * h; i++) {
    var r = Math.floor(i / w), c = i % w, x = c * C, y = r * C, s = setup['static'][i];
    if (s & 16) {
      el('rect', { x: x + 6, y: y + 6, width: C - 12, height: C - 12, rx: 4, fill: 'none', stroke: '#8d7ad6', 'stroke-width': 2, 'class': 'generator', 'data-cell': i });
    }
    if (beamCells[i] !== undefined) {
      el('rect', { x: x + 2, y: y + 2, width: C - 4, height: C - 4, fill: setup.seats[beamCells[i]].color, 'fill-opacity': 0.35, 'class': 'beam', 'data-cell': i });
    }
  }
  frame.small.forEach(function (i) {
    el('circle', { cx: (i % w) * C + C / 2, cy: Math.floor(i / w) * C + C / 2, r: 4, fill: '#f4d35e', 'class': 'fruit small', 'data-cell': i });
  });
  frame.large.forEach(function (i) {
    el('circle', { cx: (i % w) * C + C / 2, cy: Math.floor(i / w) * C + C / 2, r: 9, fill: '#ff7f11', 'class': 'fruit large', 'data-cell': i });
  });
  // Walls, drawn last over the floor.
  var d = '';
  for (var j = 0; j < w * h; j++) {
    var rr = Math.floor(j / w), cc = j % w, x0 = cc * C, y0 = rr * C, st = setup['static'][j];
    if (st & 1) d += 'M' + x0 + ' ' + y0 + 'h' + C;
    if (st & 2) d += 'M' + (x0 + C) + ' ' + y0 + 'v' + C;
    if (st & 4) d += 'M' + x0 + ' ' + (y0 + C) + 'h' + C;
    if (st & 8) d += 'M' + x0 + ' ' + y0 + 'v' + C;
  }
  el('path', { d: d, stroke: '#4d7cff', 'stroke-width': 4, 'stroke-linecap': 'round', fill: 'none' });
  // Players: sharing a cell, they sit side by side.
  var byCell = {};
  frame.pos.forEach(function (p, k) {
    var key = p[0] * w + p[1];
    (byCell[key] = byCell[key] || []).push(k);
  });
  frame.pos.forEach(function (p, k) {
    var key = p[0] * w + p[1], mates = byCell[key], at = mates.indexOf(k), n = mates.length;
    var cx = p[1] * C + C / 2 + (n > 1 ? (at - (n - 1) / 2) * (C / n) : 0);
    var cy = p[0] * C + C / 2;
    var alive = frame.alive[k];
    var g = el('g', {
      'class': 'player', 'data-seat': k, 'data-row': p[0], 'data-col': p[1],
      'data-strength': frame.strength[k], 'data-alive': alive ? '1' : '0', 'data-boost': frame.boost[k],
      opacity: alive ? 1 : 0.3
    });
    var rad = Math.min(C / 2 - 2, 8 + 2 * Math.sqrt(frame.strength[k])) / (n > 1 ? 1.6 : 1);
    el('circle', { cx: cx, cy: cy, r: rad, fill: setup.seats[k].color, stroke: frame.boost[k] > 0 ? '#fff' : '#000', 'stroke-width': frame.boost[k] > 0 ? 3 : 1 }, g);
    var t = el('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 'bold', fill: '#fff' }, g);
    t.textContent = alive ? String(frame.strength[k]) : '×';
  });
  el('text', { x: 4, y: h * C - 4, 'font-size': 10, fill: '#aaa' }).textContent = 'fruit in ' + frame.gen + ' turns';
}
