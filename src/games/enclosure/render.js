// Enclosure's board for the replay page: drawBoard(svg, setup, frame).
// 11 x 11 vertices (x right, y down), 10 x 10 cells between them. Each
// player is a <g class="player"> with data-seat, data-x, data-y,
// data-state (0 pen up, 1 pen down, -1 dead), data-stuck; each owned cell
// a <rect class="land" data-owner=…>; traps are <g class="trap">.
function drawBoard(svg, setup, frame) {
  var C = 40, M = 20;
  var n = setup.side, cells = n - 1, size = cells * C + 2 * M;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', '0 0 ' + size + ' ' + size);
  svg.setAttribute('data-game', 'enclosure');
  function el(name, attrs, parent) { return svgElement(parent || svg, name, attrs); }
  function vx(v) { return M + (v % n) * C; }
  function vy(v) { return M + Math.floor(v / n) * C; }
  el('rect', { x: 0, y: 0, width: size, height: size, fill: '#fffdf6' });
  for (var j = 0; j < cells; j++) {
    for (var i = 0; i < cells; i++) {
      var o = frame.land.charAt(j * cells + i);
      if (o !== '.') {
        el('rect', { x: M + i * C, y: M + j * C, width: C, height: C, fill: setup.seats[+o].color, 'fill-opacity': 0.45, 'class': 'land', 'data-owner': o, 'data-i': i, 'data-j': j });
      }
    }
  }
  for (var g = 0; g < n; g++) {
    el('line', { x1: M, x2: M + cells * C, y1: M + g * C, y2: M + g * C, stroke: '#ccc' });
    el('line', { y1: M, y2: M + cells * C, x1: M + g * C, x2: M + g * C, stroke: '#ccc' });
  }
  frame.traps.forEach(function (t) {
    var tg = el('g', { 'class': 'trap', 'data-x': t[0], 'data-y': t[1], 'data-count': t[2] });
    var x = M + t[0] * C, y = M + t[1] * C;
    el('path', { d: 'M' + (x - 7) + ' ' + (y - 7) + 'L' + (x + 7) + ' ' + (y + 7) + 'M' + (x + 7) + ' ' + (y - 7) + 'L' + (x - 7) + ' ' + (y + 7), stroke: '#333', 'stroke-width': 2 + t[2] }, tg);
  });
  frame.trails.forEach(function (trail, p) {
    if (trail.length === 0) return;
    var d = trail.map(function (v, k) { return (k ? 'L' : 'M') + vx(v) + ' ' + vy(v); }).join('');
    if (trail.length === 1) d += 'h0.1';
    el('path', { d: d, fill: 'none', stroke: setup.seats[p].color, 'stroke-width': 5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round', 'stroke-dasharray': '10 4', 'class': 'trail', 'data-seat': p, 'data-length': trail.length });
  });
  frame.pos.forEach(function (pos, p) {
    var x = M + pos[0] * C, y = M + pos[1] * C, st = frame.state[p];
    var pg = el('g', { 'class': 'player', 'data-seat': p, 'data-x': pos[0], 'data-y': pos[1], 'data-state': st, 'data-stuck': frame.stuck[p], opacity: st < 0 ? 0.35 : 1 });
    el('circle', { cx: x, cy: y, r: 11, fill: setup.seats[p].color, stroke: st === 1 ? '#000' : '#fff', 'stroke-width': st === 1 ? 3 : 2 }, pg);
    el('text', { x: x, y: y + 4, 'text-anchor': 'middle', 'font-size': 11, 'font-weight': 'bold', fill: '#fff' }, pg).textContent = st < 0 ? '×' : String(p);
  });
}
