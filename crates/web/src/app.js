// partizan site: the one script every page loads (served as /static/app.js,
// so the Content-Security-Policy can forbid inline scripts). Plain
// JavaScript, no build step. Pages carry their data in data- attributes.
(function () {
  'use strict';

  // Sortable tables: click a header to sort (numbers numerically, a cell's
  // data-sort when present).
  document.querySelectorAll('table.sortable').forEach(function (t) {
    t.querySelectorAll('th').forEach(function (th, i) {
      th.addEventListener('click', function () {
        var body = t.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var asc = th.dataset.dir !== 'asc'; th.dataset.dir = asc ? 'asc' : 'desc';
        function key(r) {
          var c = r.cells[i];
          var s = c.dataset.sort !== undefined ? c.dataset.sort : c.textContent.trim();
          var n = parseFloat(s);
          return isNaN(n) || !/^[-+]?[0-9.\/]+$/.test(s) ? s : n;
        }
        rows.sort(function (a, b) {
          var x = key(a), y = key(b);
          if (typeof x === 'number' && typeof y === 'number') return asc ? x - y : y - x;
          return asc ? String(x).localeCompare(String(y)) : String(y).localeCompare(String(x));
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });

  // Downloads: a button.dl names a target <svg> (data-target) and a format
  // (svg, png, tikz). TikZ text is served beside the drawing in a hidden
  // <pre id="tikz-TARGET">.
  function save(name, blob) {
    var a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(function () { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
  }
  function svgText(el) {
    var clone = el.cloneNode(true);
    clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + new XMLSerializer().serializeToString(clone);
  }
  document.querySelectorAll('button.dl').forEach(function (b) {
    b.addEventListener('click', function () {
      var id = b.dataset.target, fmt = b.dataset.format;
      var el = document.getElementById(id);
      if (!el) return;
      if (fmt === 'svg') {
        save(id + '.svg', new Blob([svgText(el)], { type: 'image/svg+xml' }));
      } else if (fmt === 'tikz') {
        var pre = document.getElementById('tikz-' + id);
        if (pre) save(id + '.tex', new Blob([pre.textContent], { type: 'text/x-tex' }));
      } else if (fmt === 'png') {
        var img = new Image();
        var url = URL.createObjectURL(new Blob([svgText(el)], { type: 'image/svg+xml' }));
        img.onload = function () {
          var k = 2, c = document.createElement('canvas');
          c.width = el.width.baseVal.value * k; c.height = el.height.baseVal.value * k;
          var g = c.getContext('2d');
          g.fillStyle = '#fff'; g.fillRect(0, 0, c.width, c.height);
          g.drawImage(img, 0, 0, c.width, c.height);
          URL.revokeObjectURL(url);
          c.toBlob(function (png) { save(id + '.png', png); }, 'image/png');
        };
        img.src = url;
      }
    });
  });

  // The explorer.
  var board = document.getElementById('board');
  var ex = document.getElementById('explorer');
  if (!board || !ex) return;
  var rs = ex.dataset.ruleset, text = ex.dataset.board, w = +ex.dataset.width;
  var cyc = ex.dataset.cycle || '.#';
  var extra = ex.dataset.query || '';
  var histKey = 'partizan-history-' + rs;
  function hist() {
    try { return JSON.parse(sessionStorage.getItem(histKey)) || { past: [], future: [] }; }
    catch (e) { return { past: [], future: [] }; }
  }
  function setHist(h) { try { sessionStorage.setItem(histKey, JSON.stringify(h)); } catch (e) { } }
  function mode() {
    var m = document.querySelector('input[name=mode]:checked');
    return m ? m.value : 'edit';
  }
  function href(b, m) {
    return '/explore?ruleset=' + encodeURIComponent(rs) + '&board=' + encodeURIComponent(b) +
      '&mode=' + encodeURIComponent(m || mode()) + extra;
  }
  function go(b, m) { location.href = href(b, m); }
  function play(child, next) {
    var h = hist();
    h.past.push(text); h.future = []; setHist(h);
    go(child, next);
  }
  var undo = document.getElementById('undo'), redo = document.getElementById('redo');
  var h0 = hist();
  if (undo) {
    undo.disabled = h0.past.length === 0;
    undo.addEventListener('click', function () {
      var h = hist(); if (!h.past.length) return;
      var b = h.past.pop(); h.future.push(text); setHist(h);
      go(b, mode() === 'left' ? 'right' : mode() === 'right' ? 'left' : mode());
    });
  }
  if (redo) {
    redo.disabled = h0.future.length === 0;
    redo.addEventListener('click', function () {
      var h = hist(); if (!h.future.length) return;
      var b = h.future.pop(); h.past.push(text); setHist(h);
      go(b, mode() === 'left' ? 'right' : mode() === 'right' ? 'left' : mode());
    });
  }
  document.querySelectorAll('input[name=mode]').forEach(function (r) {
    r.addEventListener('change', function () { go(text, r.value); });
  });
  // Each option (a.option) names its child board and the cells the move
  // changes; playing it records the history.
  var options = { left: [], right: [] };
  document.querySelectorAll('a.option').forEach(function (a) {
    var cells = (a.dataset.cells || '').split(',').filter(function (s) { return s !== ''; }).map(Number);
    options[a.dataset.player].push({ cells: cells, child: a.dataset.child, el: a });
    a.addEventListener('click', function (e) {
      e.preventDefault();
      play(a.dataset.child, a.dataset.player === 'left' ? 'right' : 'left');
    });
  });
  var status = document.getElementById('move-status');
  var picked = [];
  function mark() {
    board.querySelectorAll('rect[data-cell]').forEach(function (r) {
      r.classList.toggle('picked', picked.indexOf(+r.dataset.cell) >= 0);
    });
  }
  function candidates(list, sel) {
    return list.filter(function (o) {
      return sel.every(function (c) { return o.cells.indexOf(c) >= 0; });
    });
  }
  function clickPlay(i, who) {
    var list = options[who];
    var again = picked.indexOf(i) >= 0;
    if (again) {
      // A second click on a picked cell confirms the move that changes
      // exactly the picked cells (an Amazons arrow shot back).
      var exact = list.filter(function (o) {
        return o.cells.length === picked.length && candidates([o], picked).length === 1;
      });
      if (exact.length === 1) { play(exact[0].child, who === 'left' ? 'right' : 'left'); return; }
      picked = []; mark(); if (status) status.textContent = 'Selection cleared.';
      return;
    }
    var sel = picked.concat([i]);
    var c = candidates(list, sel);
    if (!c.length) { sel = [i]; c = candidates(list, sel); }
    if (!c.length) {
      picked = []; mark();
      if (status) status.textContent = 'No move of ' + who + ' uses that cell.';
      return;
    }
    picked = sel; mark();
    if (c.length === 1 && (sel.length >= 2 || c[0].cells.length === sel.length)) {
      play(c[0].child, who === 'left' ? 'right' : 'left');
      return;
    }
    if (status) status.textContent = c.length + ' moves of ' + who + ' use the picked cells; pick another.';
  }
  // A graph drawing: each vertex and edge names the boards its click
  // leads to (data-left, data-right: the moves there; data-edit: the next
  // state of the vertex or edge).
  board.querySelectorAll('[data-left],[data-right],[data-edit]').forEach(function (el) {
    el.addEventListener('click', function () {
      var m = mode();
      if (m === 'left' || m === 'right') {
        var child = el.dataset[m];
        if (child) { play(child, m === 'left' ? 'right' : 'left'); return; }
        if (status) status.textContent = 'No move of ' + m + ' there.';
        return;
      }
      if (el.dataset.edit) go(el.dataset.edit, 'edit');
    });
  });
  board.querySelectorAll('rect[data-cell]').forEach(function (el) {
    el.addEventListener('click', function () {
      var i = +el.dataset.cell, m = mode();
      if (m === 'left' || m === 'right') { clickPlay(i, m); return; }
      var rows = text.split('|');
      var r = Math.floor(i / w), c = i % w;
      var row = Array.from(rows[r]);
      var k = cyc.indexOf(row[c]);
      row[c] = cyc[(k + 1) % cyc.length];
      rows[r] = row.join('');
      go(rows.join('|'), 'edit');
    });
  });
})();
