// The replay player, the same for every game: the game's script defines
// drawBoard(svg, setup, frame); this one drives the turns.
// URL fragment: #end (the last turn), #turn=N, and for tests
// &test=a,b,c: actions run in order after load (next, prev, first, last,
// play, pause, key:ArrowRight, key:Space, speed:N).
(function () {
  var D = JSON.parse(document.getElementById('replay-data').textContent);
  var S = D.setup, F = D.frames, LAST = F.length - 1;
  var board = document.getElementById('board');
  var slider = document.getElementById('slider');
  var label = document.getElementById('turn-label');
  var playButton = document.getElementById('play');
  var speed = document.getElementById('speed');
  var chart = document.getElementById('chart');
  var cur = 0, timer = null;
  slider.max = String(LAST);

  function el(name, attrs, parent) { return svgElement(parent, name, attrs); }

  // The seats' table.
  var rows = [];
  var tbody = document.getElementById('seats-body');
  S.seats.forEach(function (seat, p) {
    var tr = document.createElement('tr');
    tr.setAttribute('data-seat', p);
    var cells = {};
    ['seat', 'bot', 'action', 'verdict', 'value', 'final'].forEach(function (k) {
      var td = document.createElement('td');
      td.className = k;
      tr.appendChild(td);
      cells[k] = td;
    });
    var sw = document.createElement('span');
    sw.className = 'swatch';
    sw.style.background = seat.color;
    cells.seat.appendChild(sw);
    cells.seat.appendChild(document.createTextNode(p + ' ' + seat.name));
    cells.bot.textContent = (D.bots && D.bots[p]) || '';
    cells.value.className += ' num';
    var fin = D.final || {};
    if (fin.scores && fin.scores[p] != null) {
      cells.final.textContent = fin.scores[p] + (fin.verdicts && fin.verdicts[p] && fin.verdicts[p] !== 'OK' ? ' (' + fin.verdicts[p] + ')' : '');
    }
    tbody.appendChild(tr);
    rows.push(cells);
  });

  // The chart of each seat's value over the game.
  var W = 600, H = 150, PAD = 24;
  var lo = Infinity, hi = -Infinity;
  F.forEach(function (f) {
    f.value.forEach(function (v) { if (v < lo) lo = v; if (v > hi) hi = v; });
  });
  if (!(hi > lo)) { hi = lo + 1; }
  function cx(t) { return PAD + (W - 2 * PAD) * (LAST > 0 ? t / LAST : 0); }
  function cy(v) { return H - PAD / 2 - (H - PAD) * (v - lo) / (hi - lo); }
  chart.setAttribute('viewBox', '0 0 ' + W + ' ' + H);
  chart.setAttribute('preserveAspectRatio', 'none');
  el('text', { x: 2, y: 12, 'font-size': 10, fill: '#555' }, chart).textContent = hi + ' ' + D.measure;
  el('text', { x: 2, y: H - 2, 'font-size': 10, fill: '#555' }, chart).textContent = String(lo);
  S.seats.forEach(function (seat, p) {
    var pts = F.map(function (f, t) { return cx(t).toFixed(1) + ',' + cy(f.value[p]).toFixed(1); });
    el('polyline', { points: pts.join(' '), fill: 'none', stroke: seat.color, 'stroke-width': 2, 'data-seat': p }, chart);
  });
  var cursor = el('line', { id: 'chart-cursor', y1: 0, y2: H, stroke: '#888', 'stroke-dasharray': '3 3' }, chart);

  function show(t) {
    t = Math.max(0, Math.min(LAST, Math.floor(Number(t) || 0)));
    cur = t;
    var f = F[t];
    drawBoard(board, S, f);
    slider.value = String(t);
    label.textContent = 'turn ' + t + ' / ' + LAST;
    document.body.setAttribute('data-turn', String(t));
    document.getElementById('note').textContent = f.note || '';
    rows.forEach(function (cells, p) {
      cells.action.textContent = f.act[p];
      var v = (f.verdict && f.verdict[p]) || '';
      cells.verdict.textContent = v;
      cells.verdict.className = 'verdict' + (v && v !== 'OK' ? ' bad' : '');
      cells.value.textContent = String(f.value[p]) + (f.alive[p] ? '' : ' †');
    });
    cursor.setAttribute('x1', cx(t));
    cursor.setAttribute('x2', cx(t));
  }

  function pause() {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playButton.textContent = '▶';
    document.body.setAttribute('data-playing', '0');
  }
  function play() {
    pause();
    if (cur >= LAST) show(0);
    timer = setInterval(function () {
      if (cur >= LAST) { pause(); return; }
      show(cur + 1);
    }, 1000 / Number(speed.value));
    playButton.textContent = '||';
    document.body.setAttribute('data-playing', '1');
  }
  function toggle() { if (timer === null) play(); else pause(); }
  function step(d) { pause(); show(cur + d); }

  document.getElementById('first').onclick = function () { pause(); show(0); };
  document.getElementById('prev').onclick = function () { step(-1); };
  playButton.onclick = toggle;
  document.getElementById('next').onclick = function () { step(1); };
  document.getElementById('last').onclick = function () { pause(); show(LAST); };
  slider.oninput = function () { pause(); show(slider.value); };
  speed.onchange = function () { if (timer !== null) play(); };
  document.addEventListener('keydown', function (e) {
    if (e.target && e.target.tagName === 'SELECT') return;
    var k = e.key;
    if (k === 'ArrowRight') step(1);
    else if (k === 'ArrowLeft') step(-1);
    else if (k === ' ' || k === 'Spacebar') toggle();
    else if (k === 'Home') { pause(); show(0); }
    else if (k === 'End') { pause(); show(LAST); }
    else return;
    e.preventDefault();
  });

  function fromHash() {
    var h = location.hash.replace(/^#/, '');
    var parts = h ? h.split('&') : [];
    var turn = null, tests = [];
    parts.forEach(function (p) {
      if (p === 'end') turn = LAST;
      else if (p.indexOf('turn=') === 0) turn = p.slice(5);
      else if (p.indexOf('test=') === 0) tests = decodeURIComponent(p.slice(5)).split(',');
    });
    pause();
    show(turn === null ? 0 : turn);
    return tests;
  }
  function runTest(a) {
    var ids = { next: 'next', prev: 'prev', first: 'first', last: 'last', play: 'play' };
    if (ids[a]) document.getElementById(ids[a]).click();
    else if (a === 'pause') pause();
    else if (a.indexOf('key:') === 0) {
      var key = a.slice(4) === 'Space' ? ' ' : a.slice(4);
      document.dispatchEvent(new KeyboardEvent('keydown', { key: key, bubbles: true }));
    } else if (a.indexOf('speed:') === 0) { speed.value = a.slice(6); speed.onchange(); }
    else if (a.indexOf('slider:') === 0) { slider.value = a.slice(7); slider.oninput(); }
    else if (a) throw new Error('unknown test action ' + a);
  }
  window.addEventListener('hashchange', fromHash);
  fromHash().forEach(runTest);
  document.body.setAttribute('data-ready', '1');
})();
