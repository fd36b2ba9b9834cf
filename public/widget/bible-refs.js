// Bible references in a page's text as links, with their verses in a popover on hover and keyboard focus.
// One tag, no dependencies: <script src="https://api.example.org/widget/bible-refs.js" data-lang="fr" defer></script>
// References are found by the API's /references (in each element's own lang when it is one of the five, else data-lang);
// verses come from the same origin as the script, keylessly: the static chapter files where the passage is one chapter.
(() => {
  const script = document.currentScript;
  if (!script || !script.src) return;
  const LANGS = ['fr', 'en', 'es', 'pt', 'nl'];
  const API = `${new URL(script.src).origin}/api/v1/bible`;
  const pageLang = langOf(script.getAttribute('data-lang')) || langOf(document.documentElement.lang) || 'fr';
  const SKIP = /^(A|SCRIPT|STYLE|TEXTAREA|INPUT|SELECT|BUTTON|CODE|PRE|NOSCRIPT|TEMPLATE)$/;
  const MAX_TEXT = 5000;
  const cache = new Map();
  let popover;
  let shownFor;
  let counter = 0;

  function langOf(value) {
    const lang = (value || '').slice(0, 2).toLowerCase();
    return LANGS.includes(lang) ? lang : undefined;
  }

  /** The text nodes with a digit, outside links, code and form fields, grouped by language. */
  function textNodes(root) {
    const byLang = new Map();
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode(node) {
        if (!/[0-9]/.test(node.nodeValue)) return NodeFilter.FILTER_REJECT;
        for (let element = node.parentElement; element; element = element.parentElement) {
          if (SKIP.test(element.nodeName) || element.hasAttribute('data-bible-refs-skip')) return NodeFilter.FILTER_REJECT;
        }
        return NodeFilter.FILTER_ACCEPT;
      },
    });
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const owner = node.parentElement.closest('[lang]');
      const lang = (owner && langOf(owner.getAttribute('lang'))) || pageLang;
      if (!byLang.has(lang)) byLang.set(lang, []);
      byLang.get(lang).push(node);
    }
    return byLang;
  }

  /** Sends the nodes' texts in batches of at most MAX_TEXT characters, and links what /references finds. */
  async function linkAll(lang, nodes) {
    let batch = [];
    let length = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const parts = batch;
      batch = [];
      length = 0;
      const text = parts.map((node) => node.nodeValue).join('\n\n');
      const response = await fetch(`${API}/references?lang=${lang}&text=${encodeURIComponent(text)}`);
      if (!response.ok) return;
      const { references } = await response.json();
      let start = 0;
      const found = parts.map((node) => {
        const own = { node, start, references: [] };
        start += node.nodeValue.length + 2;
        return own;
      });
      for (const reference of references) {
        const part = found.find((own) => reference.start >= own.start && reference.end <= own.start + own.node.nodeValue.length);
        if (part) part.references.push(reference);
      }
      for (const part of found) link(part.node, part.start, part.references, lang);
    };
    for (const node of nodes) {
      if (node.nodeValue.length > MAX_TEXT) continue;
      if (length + node.nodeValue.length + 2 > MAX_TEXT) await flush();
      batch.push(node);
      length += node.nodeValue.length + 2;
    }
    await flush();
  }

  /** Wraps each reference of a text node in a link, from the last so that earlier offsets hold. */
  function link(node, base, references, lang) {
    for (const reference of references.slice().reverse()) {
      const middle = node.splitText(reference.start - base);
      middle.splitText(reference.end - reference.start);
      const anchor = document.createElement('a');
      anchor.className = 'bible-refs-link';
      anchor.href = `${API}/passage?lang=${lang}&ref=${encodeURIComponent(reference.reference)}`;
      anchor.dataset.bibleRef = JSON.stringify({ lang, reference });
      anchor.lang = lang;
      middle.parentNode.replaceChild(anchor, middle);
      anchor.appendChild(middle);
      anchor.addEventListener('mouseenter', () => show(anchor));
      anchor.addEventListener('focus', () => show(anchor));
      anchor.addEventListener('mouseleave', hide);
      anchor.addEventListener('blur', hide);
    }
  }

  /** The verses of a found reference: the chapter's static file when it is one chapter, else /passage. */
  function verses({ lang, reference }) {
    const { book, from, to } = reference;
    const oneChapter = from.chapter === to.chapter;
    const url = oneChapter
      ? `${API}/${book.usfm}/${from.chapter}?lang=${lang}`
      : `${API}/passage?lang=${lang}&ref=${encodeURIComponent(reference.reference)}`;
    if (!cache.has(url)) cache.set(url, fetch(url).then((response) => (response.ok ? response.json() : Promise.reject(response.status))));
    return cache.get(url).then((body) => {
      if (!oneChapter) return { verses: body.passages.flatMap((passage) => passage.verses), attribution: '' };
      return { verses: body.verses.filter((verse) => verse.verse >= from.verse && verse.verse <= to.verse), attribution: body.attribution };
    });
  }

  function show(anchor) {
    const data = JSON.parse(anchor.dataset.bibleRef);
    const box = popoverElement();
    shownFor = anchor;
    anchor.setAttribute('aria-describedby', box.id);
    box.textContent = '';
    const title = document.createElement('strong');
    title.textContent = data.reference.reference;
    box.append(title);
    box.lang = data.lang;
    box.hidden = false;
    place(box, anchor);
    verses(data).then(
      ({ verses: list, attribution }) => {
        if (shownFor !== anchor) return;
        for (const verse of list) {
          const line = document.createElement('p');
          const number = document.createElement('sup');
          number.textContent = `${verse.verse}\u00a0`;
          line.append(number, verse.text);
          box.append(line);
        }
        if (attribution) {
          const small = document.createElement('small');
          small.textContent = attribution;
          box.append(small);
        }
        place(box, anchor);
      },
      () => {
        if (shownFor === anchor) box.append(document.createElement('p'), '…');
      },
    );
  }

  function hide() {
    if (!popover) return;
    if (shownFor) shownFor.removeAttribute('aria-describedby');
    shownFor = undefined;
    popover.hidden = true;
  }

  function place(box, anchor) {
    const rect = anchor.getBoundingClientRect();
    box.style.left = `${Math.max(4, Math.min(rect.left + window.scrollX, window.scrollX + document.documentElement.clientWidth - box.offsetWidth - 4))}px`;
    box.style.top = `${rect.bottom + window.scrollY + 6}px`;
  }

  function popoverElement() {
    if (popover) return popover;
    const style = document.createElement('style');
    style.textContent =
      '.bible-refs-popover{position:absolute;z-index:2147483647;max-width:min(26em,90vw);background:#fff;color:#1a1a1a;' +
      'border:1px solid #595959;border-radius:6px;padding:.5em .75em;box-shadow:0 4px 14px rgba(0,0,0,.2);font:15px/1.45 system-ui,sans-serif}' +
      '.bible-refs-popover p{margin:.35em 0}.bible-refs-popover small{color:#4a4a4a}.bible-refs-popover[hidden]{display:none}';
    document.head.append(style);
    popover = document.createElement('div');
    popover.id = `bible-refs-popover-${++counter}`;
    popover.className = 'bible-refs-popover';
    popover.setAttribute('role', 'tooltip');
    popover.hidden = true;
    document.body.append(popover);
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') hide();
    });
    return popover;
  }

  function start() {
    for (const [lang, nodes] of textNodes(document.body)) linkAll(lang, nodes).catch(() => {});
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
  else start();
})();
