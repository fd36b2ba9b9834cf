// Accessibility fix-ups for the markup of the vendored Scalar (1.46.4), applied after it renders and after each re-render.
// axe-core finds these serious or critical rules in Scalar's own markup, which no configuration option avoids; each fix
// below names its rule, the element, and why the change keeps the page working. The vendored file is not edited (see
// vendor/README.md); test/docs/docs-page.test.ts runs axe-core on the page and fails if any serious violation remains.
(() => {
  /**
   * Every fix: a selector for the elements still to fix and what to do to each. A fixed element no longer matches, or
   * (the names computed from the panel, a reference checked against the page) matches and is left as it is.
   */
  const FIXES = [
    {
      // aria-allowed-attr: the sidebar's items are buttons with aria-selected, which a button may not have (it belongs
      // to tabs, options, grid cells); the item Scalar marks as the reader's place becomes aria-current, as upstream
      // Scalar later did (scalar/scalar#9783). Vue writes aria-selected again when the place moves: watched below.
      selector: 'button[aria-selected]:not([role])',
      fix(button) {
        if (button.getAttribute('aria-selected') === 'true') button.setAttribute('aria-current', 'page');
        else button.removeAttribute('aria-current');
        button.removeAttribute('aria-selected');
      },
    },
    {
      // button-name: the sidebar's search button has role="search", a landmark role, so its text ("Open Search") no
      // longer names it; without the role it is the plain named button it is (as upstream later did, scalar/scalar#9783).
      selector: 'button[role="search"]',
      fix(button) {
        button.removeAttribute('role');
      },
    },
    {
      // button-name: the copy buttons of code blocks and of response examples show an icon only (their "Copy" text is
      // display:none until the block is hovered), so they get the name their tooltip shows.
      selector: 'button.scalar-code-copy:not([aria-label]), button.code-copy:not([aria-label])',
      fix(button) {
        button.setAttribute('aria-label', 'Copy code');
      },
    },
    {
      // nested-interactive: a response's disclosure button holds its media type, a focusable label when the response
      // has one type. There is nothing to choose, so it is no longer a tab stop; it stays in the button's name.
      selector: 'button .selected-content-type[tabindex]',
      fix(label) {
        label.removeAttribute('tabindex');
      },
    },
    {
      // nested-interactive: when a response has several media types (JSON and JSON-LD, JSON and iCalendar), that
      // place holds a chooser, a listbox button inside the disclosure button, which screen readers cannot reach. The
      // chooser (the root element of Scalar's listbox) moves into a box of ours just after the disclosure button,
      // placed where it was by docs.css. Only the chooser moves: Vue updates it through its own element wherever it
      // is, while the disclosure button's children, which Vue inserts before one another when the response opens,
      // all stay where Vue put them.
      selector: 'button.parameter-item-trigger .contents:has(> button[aria-haspopup="listbox"])',
      fix(chooser) {
        const trigger = chooser.closest('button.parameter-item-trigger');
        const box = document.createElement('div');
        box.className = 'docs-media-type';
        box.append(chooser);
        trigger.after(box);
      },
    },
    {
      // nested-interactive: a closed response's button shows the first line of its description as a preview, and a
      // description with links (the problem types of an error response) puts links inside the button, hidden by the
      // one-line clamp yet reached by Tab. They become plain text there; opening the response shows the description
      // with its links, outside the button. The preview is HTML that Vue sets as a whole (innerHTML), so a new preview
      // is new links, fixed again.
      selector: 'button a[href]',
      fix(link) {
        const text = document.createElement('span');
        text.append(...link.childNodes);
        link.replaceWith(text);
      },
    },
    {
      // scrollable-region-focusable: a tag's "Operations" card scrolls, and its entries are links without href, so a
      // keyboard could not scroll it; the list (already labelled "<tag> endpoints") takes focus so arrow keys scroll it.
      selector: 'ul.endpoints:not([tabindex])',
      fix(list) {
        list.setAttribute('tabindex', '0');
      },
    },
    // The request panel ("Test Request", Scalar's API client) once it is open:
    {
      // aria-input-field-name: the key and value cells of its tables (query parameters, headers, cookies) and the
      // response body are CodeMirror editors, role="textbox" with no name (Scalar labels their wrapper
      // "undefined Key"). Each is named for where it is (see placeName): "Request: Versions, Headers, Key",
      // "Response, Body". The panel is reused from one operation to the next, so a name this script gave is computed
      // again on each pass (and only written when it changed); a name Scalar gives is left alone.
      selector: '.cm-content[role="textbox"]:not([aria-label]), .cm-content[role="textbox"][data-named-by-docs]',
      fix: nameForPlace,
    },
    {
      // label: the check box that turns a table row on or off has no label; it is named the same way, for its column
      // ("Enabled") and its row's key: "Request: Versions, Headers, Accept, Enabled".
      selector: 'td input[type="checkbox"]:not([aria-label]), td input[type="checkbox"][data-named-by-docs]',
      fix: nameForPlace,
    },
    {
      // aria-prohibited-attr: a header's "More Information" button has role="none" and a name; a focusable button
      // cannot be presentational (browsers keep it a button), so the role only makes its name "prohibited". Removed.
      selector: 'button[role="none"], button[role="presentation"]',
      fix(button) {
        button.removeAttribute('role');
      },
    },
    {
      // aria-valid-attr-value: the response body's copy button says it controls an element id the page does not have.
      // A copy button's reference is dropped when nothing on the page has that id (the button copies all the same).
      selector: 'button.group\\/copy-button[aria-controls]',
      fix(button) {
        if (!document.getElementById(button.getAttribute('aria-controls'))) button.removeAttribute('aria-controls');
      },
    },
    {
      // scrollable-region-focusable: the response body's read-only editor scrolls sideways on long lines, and nothing in
      // it takes focus (CodeMirror gives its scroller tabindex="-1"); the scroller takes focus so arrow keys scroll it.
      selector: '.cm-scroller[tabindex="-1"]:has(> .cm-content[contenteditable="false"])',
      fix(scroller) {
        scroller.setAttribute('tabindex', '0');
      },
    },
  ];
  // nested-interactive on a model's heading (a "Copy link" button inside the section's disclosure button) is fixed in
  // docs.css, which hides that button: CSS applies at once and to every re-render.

  /** Names a control of the request panel for where it is, marking the name as this script's. */
  function nameForPlace(control) {
    const name = placeName(control);
    if (control.getAttribute('aria-label') !== name) control.setAttribute('aria-label', name);
    control.setAttribute('data-named-by-docs', '');
  }

  /**
   * A control's place: the labels of its enclosing sections, outermost first, then, in a table, the row's key (the
   * text of its key cell, unless that cell is the control's own or still shows its "Key" placeholder) and the column's
   * header.
   */
  function placeName(control) {
    const parts = [];
    for (let section = control.closest('section'); section; section = section.parentElement?.closest('section')) {
      const label = labelOf(section);
      if (label) parts.unshift(label);
    }
    const cell = control.closest('td');
    const row = cell?.closest('tr');
    if (cell && row) {
      const keyCell = row.children[1];
      if (keyCell && keyCell !== cell && !keyCell.querySelector('.cm-placeholder')) {
        const key = keyCell.textContent.trim();
        if (key) parts.push(key);
      }
      const header = row.closest('table')?.querySelectorAll('tr > th')[[...row.children].indexOf(cell)];
      if (header?.textContent.trim()) parts.push(header.textContent.trim());
    }
    return parts.join(', ') || 'Code';
  }

  /** An element's own label: its aria-label, or the text of the elements its aria-labelledby names. */
  function labelOf(element) {
    const ids = element.getAttribute('aria-labelledby');
    if (!ids) return element.getAttribute('aria-label')?.trim() ?? '';
    return ids
      .split(/\s+/)
      .map((id) => document.getElementById(id)?.textContent.trim() ?? '')
      .join(' ')
      .trim();
  }

  /** One pass over the page: fixes every element that still needs it. */
  function fixPage() {
    for (const { selector, fix } of FIXES) {
      for (const element of document.querySelectorAll(selector)) fix(element);
    }
  }

  // Scalar renders asynchronously and re-renders as the reader scrolls, opens sections and sends requests: each batch of
  // changes is followed by a pass, before the browser paints. The pass's own changes cause one more pass, which finds
  // nothing left to fix.
  new MutationObserver(fixPage).observe(document.documentElement, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: ['aria-selected', 'role', 'aria-label', 'aria-controls', 'tabindex'],
  });
  fixPage();
})();
