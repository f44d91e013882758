import RowKitSnapshot

/// The page of `rowkit preview`: every case's image with its lint findings drawn as boxes
/// over it, an error in place of a case that does not render (its last good image kept,
/// dimmed), updated through the server's event stream: the page never polls.
enum PreviewPage {
  static func html(title: String) -> String {
    """
    <!doctype html>
    <html lang="en">
    <head>
    <meta charset="utf-8">
    <title>RowKit preview: \(ReviewReport.escape(title))</title>
    <style>
      :root { --failed: #c5221f; --mark: rgba(217, 48, 37, 0.9); font-family: system-ui, sans-serif; color: #1f2328; }
      body { margin: 0; background: #f6f7f9; }
      header { position: sticky; top: 0; background: #fff; border-bottom: 1px solid #d8dde3; padding: 10px 16px; z-index: 2; }
      header h1 { font-size: 16px; margin: 0 0 4px; }
      #status { font-size: 12px; color: #5f6b7a; }
      #status.offline { color: var(--failed); }
      main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; align-items: flex-start; }
      figure.case { margin: 0; background: #fff; border: 1px solid #d8dde3; border-radius: 6px; padding: 8px; max-width: 100%; }
      figure.case.error { border-color: var(--failed); }
      figure.case.updated { box-shadow: 0 0 0 2px #1a73e8; }
      figcaption { font-size: 12px; font-weight: 600; margin: 0 0 6px; word-break: break-all; }
      .frame { position: relative; display: inline-block; line-height: 0; }
      .frame img { display: block; max-width: 100%; }
      figure.case.error .frame img { opacity: 0.35; }
      .mark { position: absolute; border: 2px solid var(--mark); box-sizing: border-box; }
      .mark span { position: absolute; top: -2px; left: -2px; transform: translateY(-100%); background: var(--mark); color: #fff;
        font: 600 10px/14px system-ui, sans-serif; padding: 0 4px; border-radius: 3px 3px 0 0; }
      pre.error { white-space: pre-wrap; color: var(--failed); font-size: 12px; margin: 0 0 6px; max-width: 640px; }
      ol.findings { font-size: 12px; margin: 6px 0 0; padding-left: 20px; max-width: 640px; }
    </style>
    </head>
    <body>
    <header><h1>RowKit preview: \(ReviewReport.escape(title))</h1><p id="status">loading…</p></header>
    <main id="cases"></main>
    <script>
    (function () {
      const token = new URLSearchParams(location.search).get('token');
      const status = document.getElementById('status');
      const main = document.getElementById('cases');
      const shown = new Map();
      function text(tag, value, className) {
        const element = document.createElement(tag);
        element.textContent = value;
        if (className) element.className = className;
        return element;
      }
      function build(entry) {
        const figure = document.createElement('figure');
        figure.className = 'case';
        figure.dataset.name = entry.name;
        figure.appendChild(text('figcaption', entry.name));
        return figure;
      }
      function fill(figure, entry, updated) {
        while (figure.childNodes.length > 1) figure.removeChild(figure.lastChild);
        figure.classList.toggle('error', !!entry.error);
        figure.dataset.version = entry.version;
        if (entry.error) figure.appendChild(text('pre', entry.error, 'error'));
        if (entry.hasImage) {
          const frame = document.createElement('div');
          frame.className = 'frame';
          const image = document.createElement('img');
          image.alt = entry.name;
          image.src = '/image?case=' + encodeURIComponent(entry.name) + '&v=' + entry.imageVersion + '&token=' + token;
          image.style.width = entry.width + 'px';
          frame.appendChild(image);
          entry.marks.forEach(function (mark, index) {
            const box = document.createElement('div');
            box.className = 'mark';
            box.title = mark.text;
            box.style.left = (100 * mark.x / entry.width) + '%';
            box.style.top = (100 * mark.y / entry.height) + '%';
            box.style.width = (100 * mark.width / entry.width) + '%';
            box.style.height = (100 * mark.height / entry.height) + '%';
            box.appendChild(text('span', String(index + 1)));
            frame.appendChild(box);
          });
          figure.appendChild(frame);
          if (entry.marks.length) {
            const list = document.createElement('ol');
            list.className = 'findings';
            entry.marks.forEach(function (mark) { list.appendChild(text('li', mark.text)); });
            figure.appendChild(list);
          }
        }
        if (updated) {
          figure.classList.add('updated');
          setTimeout(function () { figure.classList.remove('updated'); }, 600);
        }
      }
      let loading = Promise.resolve();
      function load() {
        loading = loading.then(function () {
          return fetch('/api/catalog?token=' + token).then(function (response) { return response.json(); }).then(function (catalog) {
            const names = new Set(catalog.entries.map(function (entry) { return entry.name; }));
            shown.forEach(function (figure, name) { if (!names.has(name)) { figure.remove(); shown.delete(name); } });
            catalog.entries.forEach(function (entry, index) {
              let figure = shown.get(entry.name);
              const isNew = !figure;
              if (isNew) { figure = build(entry); shown.set(entry.name, figure); }
              if (main.children[index] !== figure) main.insertBefore(figure, main.children[index] || null);
              if (isNew || figure.dataset.version !== String(entry.version)) fill(figure, entry, !isNew);
            });
            const errors = catalog.entries.filter(function (entry) { return entry.error; }).length;
            status.className = '';
            status.textContent = catalog.entries.length + ' cases' + (errors ? ', ' + errors + ' with errors' : '')
              + ' · updated ' + new Date().toLocaleTimeString() + ' · version ' + catalog.version;
            document.body.dataset.version = catalog.version;
          });
        }).catch(function (error) { status.className = 'offline'; status.textContent = 'cannot load the catalog: ' + error; });
      }
      const events = new EventSource('/events?token=' + token);
      events.addEventListener('change', load);
      events.onerror = function () { status.className = 'offline'; status.textContent = 'the preview server is not answering; retrying…'; };
    })();
    </script>
    </body>
    </html>
    """
  }
}
