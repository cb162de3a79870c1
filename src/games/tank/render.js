// Tank's board for the replay page: drawBoard(svg, setup, frame).
// (x, y) cells, (0, 0) top left. Each tank is a <g class="tank"> with
// data-tank (blue 0, blue 1, red 0, red 1), data-side, data-x, data-y
// (or data-alive="0" once destroyed); bricks have class "brick".
function drawBoard(svg, setup, frame) {
  var C = 48;
  var w = setup.width, h = setup.height;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  svg.setAttribute('viewBox', '0 0 ' + (w * C) + ' ' + (h * C));
  svg.setAttribute('data-game', 'tank');
  svg.setAttribute('data-result', frame.result);
  function el(name, attrs, parent) { return svgElement(parent || svg, name, attrs); }
  el('rect', { x: 0, y: 0, width: w * C, height: h * C, fill: '#2b2b2b' });
  for (var gx = 0; gx <= w; gx++) el('line', { x1: gx * C, x2: gx * C, y1: 0, y2: h * C, stroke: '#3a3a3a' });
  for (var gy = 0; gy <= h; gy++) el('line', { y1: gy * C, y2: gy * C, x1: 0, x2: w * C, stroke: '#3a3a3a' });
  frame.bricks.forEach(function (i) {
    var x = (i % w) * C, y = Math.floor(i / w) * C;
    var g = el('g', { 'class': 'brick', 'data-x': i % w, 'data-y': Math.floor(i / w) });
    el('rect', { x: x + 2, y: y + 2, width: C - 4, height: C - 4, fill: '#b5532f' }, g);
    el('path', { d: 'M' + (x + 2) + ' ' + (y + C / 2) + 'h' + (C - 4) + 'M' + (x + C / 2) + ' ' + (y + 2) + 'v' + (C / 2 - 2), stroke: '#7a3419', 'stroke-width': 2 }, g);
  });
  setup.steel.forEach(function (p) {
    el('rect', { x: p[0] * C + 2, y: p[1] * C + 2, width: C - 4, height: C - 4, fill: '#9aa3ad', stroke: '#dfe5ea', 'stroke-width': 3, 'class': 'steel', 'data-x': p[0], 'data-y': p[1] });
  });
  setup.bases.forEach(function (p, side) {
    var up = frame.base[side];
    var g = el('g', { 'class': 'base', 'data-side': side, 'data-alive': up ? '1' : '0' });
    el('rect', { x: p[0] * C + 4, y: p[1] * C + 4, width: C - 8, height: C - 8, rx: 6, fill: up ? setup.seats[side].color : '#555', stroke: '#fff', 'stroke-width': 2 }, g);
    el('text', { x: p[0] * C + C / 2, y: p[1] * C + C / 2 + 5, 'text-anchor': 'middle', 'font-size': 14, fill: '#fff', 'font-weight': 'bold' }, g).textContent = up ? '★' : '×';
  });
  frame.shots.forEach(function (s) {
    var side = s[0] >> 1;
    el('line', {
      'class': 'shot', 'data-tank': s[0],
      x1: s[1] * C + C / 2, y1: s[2] * C + C / 2, x2: s[4] * C + C / 2, y2: s[5] * C + C / 2,
      stroke: side === 0 ? '#8ec5ff' : '#ff9a9a', 'stroke-width': 5, 'stroke-linecap': 'round', 'stroke-dasharray': '8 5'
    });
    if (s[6]) el('circle', { cx: s[4] * C + C / 2, cy: s[5] * C + C / 2, r: 10, fill: '#ffd23f', 'fill-opacity': 0.8 });
  });
  frame.tanks.forEach(function (t, i) {
    var side = i >> 1;
    if (t === null) {
      el('g', { 'class': 'tank', 'data-tank': i, 'data-side': side, 'data-alive': '0' });
      return;
    }
    var x = t[0] * C, y = t[1] * C;
    var mates = frame.tanks.filter(function (u) { return u !== null && u[0] === t[0] && u[1] === t[1]; }).length;
    var off = mates > 1 ? ((i & 1) ? 6 : -6) : 0;
    var g = el('g', { 'class': 'tank', 'data-tank': i, 'data-side': side, 'data-x': t[0], 'data-y': t[1], 'data-alive': '1' });
    el('rect', { x: x + 8 + off, y: y + 8 + off, width: C - 16, height: C - 16, rx: 5, fill: setup.seats[side].color, stroke: '#000', 'stroke-width': 2 }, g);
    el('text', { x: x + C / 2 + off, y: y + C / 2 + 5 + off, 'text-anchor': 'middle', 'font-size': 13, 'font-weight': 'bold', fill: '#fff' }, g).textContent = String(i & 1);
  });
  var result = frame.result === -2 ? '' : frame.result === -1 ? 'draw' : setup.seats[frame.result].name + ' wins';
  if (result) el('text', { x: w * C / 2, y: h * C / 2, 'text-anchor': 'middle', 'font-size': 40, 'font-weight': 'bold', fill: '#fff', stroke: '#000', 'stroke-width': 1.5, 'class': 'result' }).textContent = result;
}
