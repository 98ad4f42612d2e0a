/*
 * The Mnemo console's only script, served from the jar (the Content-Security-Policy allows no
 * other, and no inline script). It asks before destructive actions and shows a refresh's progress,
 * reading it with the session's CSRF token from the page's meta tag.
 * It never writes HTML: text goes in with textContent.
 */
(function () {
  'use strict';

  document.addEventListener('submit', function (event) {
    var question = event.target.getAttribute('data-confirm');
    if (question && !window.confirm(question)) {
      event.preventDefault();
    }
  });

  var progress = document.getElementById('refresh-progress');
  if (!progress) {
    return;
  }
  var statusUrl = progress.getAttribute('data-status');
  // Data reads carry the session's CSRF token from the page: the cookie alone reads no data.
  var csrfMeta = document.querySelector('meta[name="mnemo-csrf"]');
  var csrf = csrfMeta ? csrfMeta.getAttribute('content') : '';
  var text = progress.querySelector('.progress-text');
  function poll() {
    fetch(statusUrl, { credentials: 'same-origin', headers: { 'Accept': 'application/json', 'X-Mnemo-Csrf': csrf } })
      .then(function (response) {
        if (!response.ok) {
          throw new Error('status ' + response.status);
        }
        return response.json();
      })
      .then(function (status) {
        if (status.running) {
          text.textContent = status.text;
          window.setTimeout(poll, 1000);
        } else {
          window.location.replace('/refresh');
        }
      })
      .catch(function () {
        window.setTimeout(poll, 3000);
      });
  }
  window.setTimeout(poll, 500);
}());
