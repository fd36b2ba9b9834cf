// The copy button of a new key: shown only when scripts run (the key stays selectable without it).
document.addEventListener('DOMContentLoaded', () => {
  for (const button of document.querySelectorAll('button[data-copy-target]')) {
    const input = document.getElementById(button.dataset.copyTarget);
    const status = button.parentElement.querySelector('.copy-status');
    if (!input || !navigator.clipboard) continue;
    button.hidden = false;
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(input.value);
        if (status) status.textContent = 'Copied to the clipboard.';
      } catch {
        input.select();
        if (status) status.textContent = 'Press Ctrl+C (or ⌘C) to copy the selected key.';
      }
    });
  }
});
