/// The script `rowkit review` adds to the review page: Accept, Reject and Undo buttons on each
/// case and group, the progress line, a box that goes to a case by its name, and the keys
/// `a`, `r`, `u` and `g` (`g` twice: a group may be hundreds of references). A key held down
/// acts once, and every message names the cases an action took. It runs only with the token
/// in the page's address, so the page opened from disk stays as it was.
enum ReviewPageScript {
  static let source = """
    (function () {
      const token = new URLSearchParams(location.search).get('token');
      if (!token) return;
      const style = document.createElement('style');
      style.textContent = `
        .review-bar { margin: 6px 0 0; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
        .review-bar .error { color: var(--failed); }
        .review-bar input { font: inherit; font-size: 12px; padding: 2px 6px; border: 1px solid #c3c9d1; border-radius: 4px; width: 16em; }
        .review-actions { display: flex; gap: 6px; align-items: center; margin: 0 0 8px; }
        .review-actions button, .review-bar button { font: inherit; font-size: 12px; padding: 3px 12px; border: 1px solid #c3c9d1; border-radius: 4px; background: #fff; cursor: pointer; }
        .review-actions button.accept { border-color: var(--passed); color: var(--passed); font-weight: 600; }
        .review-actions button.reject { border-color: var(--failed); color: var(--failed); }
        .review-state { font-size: 12px; font-weight: 600; }
        .case[data-review="accepted"] { border-color: var(--passed); }
        .case[data-review="accepted"] .review-state { color: var(--passed); }
        .case[data-review="rejected"] { border-color: #9aa0a6; }
        .case[data-review="rejected"] .review-state { color: #5f6b7a; }
        .case[data-review] { opacity: 0.75; }
        .case.current[data-review] { opacity: 1; }
        p.accept { display: none; }`;
      document.head.appendChild(style);
      // A case the page has not added yet (see ReviewReport.html) is decorated when it comes.
      const sectionOf = name => document.getElementById('case-' + name);
      const bar = document.createElement('p');
      bar.className = 'review-bar'; bar.id = 'review-bar';
      bar.innerHTML = '<strong id="review-progress">loading…</strong>'
        + '<button type="button" id="review-undo" disabled>Undo (u)</button>'
        + '<input type="search" id="review-find" placeholder="go to case…" list="review-names" aria-label="Go to a case by its name">'
        + '<datalist id="review-names"></datalist>'
        + '<span id="review-message" role="status"></span>'
        + '<span class="meta">review keys: <kbd>a</kbd> accept, <kbd>r</kbd> reject, <kbd>u</kbd> undo, <kbd>g</kbd> <kbd>g</kbd> accept the group</span>';
      document.querySelector('header').appendChild(bar);
      const message = document.getElementById('review-message');
      const undoButton = document.getElementById('review-undo');
      let state = null;
      // Each request is numbered, and its answer carries the number (`sent`).
      let requestsSent = 0;
      function api(path, body) {
        const sent = ++requestsSent;
        return fetch(path, {
          method: body ? 'POST' : 'GET', cache: 'no-store',
          headers: { 'X-RowKit-Token': token, 'Content-Type': 'application/json' },
          body: body ? JSON.stringify(body) : undefined,
        }).then(response => response.json().then(json => {
          if (!response.ok) throw new Error(json.error || response.statusText);
          json.sent = sent;
          return json;
        }));
      }
      function say(text, isError) { message.textContent = text; message.className = isError ? 'error' : ''; }
      function show(next) {
        // Answers may come in another order than their requests (the state asked for after a
        // refusal, then an accept): an answer to an earlier request that knows fewer entries
        // is not shown. A later one is, even with fewer: the log was moved away meanwhile.
        if (state && next.sent < state.sent && next.entries < state.entries) return;
        state = next;
        document.getElementById('review-progress').textContent = state.reviewed + ' of ' + state.reviewable.length + ' reviewed'
          + (state.ci ? ' (CI is set: nothing can be accepted here)' : '');
        document.querySelectorAll('.review-actions button.accept').forEach(button => { button.disabled = state.ci; });
        undoButton.disabled = !state.undo;
        undoButton.title = state.undo ? 'Undo: ' + state.undo : 'nothing to undo';
        state.reviewable.forEach(name => showReview(sectionOf(name)));
        // A group whose cases are all accepted (or all rejected) has nothing left to accept
        // (or to reject).
        document.querySelectorAll('[data-group]').forEach(item => {
          const group = state.groups[Number(item.dataset.group)];
          const accept = item.querySelector('.review-actions .accept');
          const reject = item.querySelector('.review-actions .reject');
          if (group && accept) accept.disabled = state.ci || group.names.every(name => state.cases[name] === 'accepted');
          if (group && reject) reject.disabled = group.names.every(name => state.cases[name] === 'rejected');
        });
        document.body.dataset.reviewed = String(state.reviewed);
      }
      function showReview(section) {
        if (!section) return;
        const review = state.cases[section.dataset.name];
        if (review) section.dataset.review = review; else delete section.dataset.review;
        const label = section.querySelector('.review-state');
        if (label) label.textContent = review || '';
        const accept = section.querySelector('.review-actions .accept');
        if (accept) accept.disabled = state.ci || review === 'accepted';
        const reject = section.querySelector('.review-actions .reject');
        if (reject) reject.disabled = review === 'rejected';
      }
      // What an action took, by name: `accepted: people/feed`, `undone: 4 cases of “…”`.
      function told(entry) {
        const what = entry.cases.length === 1 ? entry.cases[0]
          : entry.cases.length + ' cases' + (entry.group ? ' of “' + entry.group + '”' : '');
        return (entry.action === 'undo' ? 'undone' : entry.action + 'ed') + ': ' + what;
      }
      // Goes to the case `name`, also when the address names it already (a second undo of
      // the same case), where setting the address again would do nothing.
      function goTo(name) {
        const hash = new URLSearchParams({ case: name }).toString();
        if (location.hash.slice(1) === hash) window.dispatchEvent(new HashChangeEvent('hashchange'));
        else location.hash = hash;
      }
      // The server's state again: after a refusal, the page shows what is so (another review
      // of the report may have acted), not what it believed.
      function refresh() { return api('/api/state').then(show, () => {}); }
      // One action at a time: a key pressed twice before the first answer came would act
      // twice on the same case, and advance past the next one unseen.
      let busy = false;
      function act(path, body, advance) {
        if (busy) { say('still working on the last action…', false); return Promise.resolve(); }
        busy = true;
        return api(path, body).then(next => {
          show(next);
          say(next.entry ? told(next.entry) : '', false);
          if (advance) document.dispatchEvent(new KeyboardEvent('keydown', { key: 'j', bubbles: true }));
          // An undo goes to the case it took back, so that the reviewer sees what is open again.
          if (next.entry && next.entry.action === 'undo' && next.entry.cases.length > 0) goTo(next.entry.cases[0]);
        }, error => { say(error.message, true); return refresh(); }).finally(() => { busy = false; });
      }
      function currentName() { return document.body.dataset.current; }
      function inSight(section) {
        if (!section) return false;
        const box = section.getBoundingClientRect();
        return box.bottom > document.querySelector('header').offsetHeight && box.top < window.innerHeight;
      }
      function groupOf(name) { return state ? state.groups.find(g => g.names.includes(name)) : undefined; }
      function addGroupButtons(item, group) {
        const actions = document.createElement('p');
        actions.className = 'review-actions';
        actions.innerHTML = '<button type="button" class="accept">Accept all ' + group.names.length + '</button>'
          + '<button type="button" class="reject">Reject all ' + group.names.length + '</button>';
        // Named for a screen reader by their group: six groups are not six "Accept all 4".
        const cases = group.names.length + ' cases of “' + group.title + '”';
        actions.querySelector('.accept').setAttribute('aria-label', 'Accept all ' + cases);
        actions.querySelector('.reject').setAttribute('aria-label', 'Reject all ' + cases);
        actions.querySelector('.accept').addEventListener('click', () => act('/api/accept', { group: group.index }, false));
        actions.querySelector('.reject').addEventListener('click', () => act('/api/reject', { group: group.index }, false));
        item.dataset.group = String(group.index);
        item.appendChild(actions);
      }
      const reviewable = new Set();
      function decorateCases(sections) {
        sections.forEach(section => {
          const name = section.dataset.name;
          if (!reviewable.has(name) || section.querySelector('.review-actions')) return;
          const actions = document.createElement('p');
          actions.className = 'review-actions';
          actions.innerHTML = '<button type="button" class="accept">Accept (a)</button><button type="button" class="reject">Reject (r)</button><span class="review-state"></span>';
          // Set as text, never as markup: a case's name comes from the report.
          actions.querySelector('.accept').setAttribute('aria-label', 'Accept ' + name + ' (a)');
          actions.querySelector('.reject').setAttribute('aria-label', 'Reject ' + name + ' (r)');
          actions.querySelector('.accept').addEventListener('click', () => act('/api/accept', { cases: [name] }, false));
          actions.querySelector('.reject').addEventListener('click', () => act('/api/reject', { cases: [name] }, false));
          section.querySelector('h3').after(actions);
          showReview(section);
        });
      }
      function decorate() {
        state.reviewable.forEach(name => reviewable.add(name));
        decorateCases(document.querySelectorAll('section.case'));
        // The page lists the shared changes in the server's order; groups it does not list
        // (the new cases) get an item of their own.
        let list = document.getElementById('groups');
        const items = list ? Array.from(list.children) : [];
        state.groups.forEach((group, index) => {
          let item = items[index];
          if (!item) {
            if (!list) {
              const heading = document.createElement('h2'); heading.className = 'groups'; heading.textContent = 'Groups';
              list = document.createElement('ul'); list.className = 'groups'; list.id = 'groups';
              document.querySelector('main').prepend(heading, list);
            }
            item = document.createElement('li');
            item.dataset.count = String(group.names.length);
            const line = document.createElement('p');
            line.innerHTML = '<strong></strong> ';
            line.firstChild.textContent = group.names.length + ' cases';
            line.append(group.title);
            item.appendChild(line);
            // Its cases, each a link to it, as the report's own group lines have.
            const members = document.createElement('p');
            members.className = 'members';
            group.names.forEach((name, position) => {
              if (position > 0) members.append(', ');
              const link = document.createElement('a');
              link.href = '#' + new URLSearchParams({ case: name }).toString();
              link.textContent = name;
              members.appendChild(link);
            });
            item.appendChild(members);
            list.appendChild(item);
          }
          addGroupButtons(item, group);
        });
      }
      document.addEventListener('rowkit-cases-added', event => {
        if (!state) return;
        const cases = document.getElementsByClassName('case');
        decorateCases(Array.prototype.slice.call(cases, cases.length - event.detail.count));
      });
      // Go to a case by its name: also one the page has not added yet, which a find in
      // the page would not see. Enter takes the name, or the first to review containing it.
      const find = document.getElementById('review-find');
      find.addEventListener('focus', () => {
        const names = document.getElementById('review-names');
        if (!state || names.childElementCount > 0) return;
        state.reviewable.forEach(name => { const option = document.createElement('option'); option.value = name; names.appendChild(option); });
      });
      find.addEventListener('keydown', event => {
        if (event.key !== 'Enter' || !state) return;
        const text = find.value.trim();
        const name = state.reviewable.includes(text) ? text : state.reviewable.find(n => n.includes(text));
        if (!text || !name) { say(text ? 'no case to review is named like ' + text : '', !!text); return; }
        goTo(name);
        find.blur();
      });
      // An undo always names the entry the page shows, so that one of another review's
      // actions is refused rather than taken back unseen; with none shown, nothing is sent.
      function undo() {
        if (!state.undo) { say('nothing to undo', true); return refresh(); }
        return act('/api/undo', { undoes: state.undoes }, false);
      }
      undoButton.addEventListener('click', undo);
      // The group a first g named: only a second g, with no other key or click between,
      // accepts it.
      let armedGroup = null;
      document.addEventListener('pointerdown', () => { armedGroup = null; });
      document.addEventListener('keydown', event => {
        if (!state || event.ctrlKey || event.metaKey || event.altKey) return;
        if (event.target && event.target.tagName === 'INPUT') return;
        if (!['a', 'r', 'u', 'g'].includes(event.key)) { armedGroup = null; return; }
        event.preventDefault();
        // A key held down repeats: it would accept case after case, each unseen.
        if (event.repeat) return;
        const name = currentName();
        const isReviewable = name && reviewable.has(name);
        const group = event.key === 'g' ? groupOf(name) : undefined;
        const armed = armedGroup;
        armedGroup = null;
        // Scrolled where no case is in sight (the groups above them all), a key would act
        // on a case the reviewer cannot see.
        if (event.key !== 'u' && name && !inSight(sectionOf(name))) {
          say(name + ' is out of sight: j or k goes to a case, or a click', true);
          return;
        }
        switch (event.key) {
          case 'a': if (isReviewable) act('/api/accept', { cases: [name] }, true); else say('this case has nothing to accept', true); break;
          case 'r': if (isReviewable) act('/api/reject', { cases: [name] }, true); else say('this case has nothing to reject', true); break;
          case 'u': undo(); break;
          case 'g':
            if (!group) say('this case is in no group', true);
            else if (group.names.every(n => state.cases[n] === 'accepted')) say('every case of “' + group.title + '” is accepted already', true);
            else if (armed === group.index) act('/api/accept', { group: group.index }, false);
            else {
              armedGroup = group.index;
              say('g again accepts all ' + group.names.length + ' cases of “' + group.title + '”; any other key cancels', false);
            }
            break;
        }
      });
      api('/api/state').then(next => {
        state = next; decorate(); show(next);
        // The review bar made the sticky header taller since the page went to the case the
        // address names: go there again, so that its heading is not under the header.
        if (new URLSearchParams(location.hash.slice(1)).get('case')) window.dispatchEvent(new HashChangeEvent('hashchange'));
      }, error => say(error.message, true));
    })();
    """
}
