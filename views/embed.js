/*
 * Renders a calendar view of this site into a page of another site, without a frame:
 *
 *   <div data-cal-embed="https://calendar.example.org/embed/events/month/"></div>
 *   <script src="https://calendar.example.org/embed.js" async></script>
 *
 * The view is fetched from this site (CORS_ORIGINS must let the page's origin read it; `*` does),
 * and its calendar is put into a shadow root with the site's stylesheet, so that neither page's
 * styles leak into the other. Links between views are followed in place; an event's link opens
 * its page. No other code runs, and nothing is sent but the view's address.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  if (!script || !script.src) return;
  var origin = new URL(script.src).origin;

  function fallback(host, address) {
    var page = address.replace('/embed/events', '/events');
    var link = document.createElement('a');
    link.href = page;
    link.textContent = page;
    host.textContent = '';
    host.appendChild(link);
  }

  function render(host, address) {
    var target = new URL(address, origin);
    if (target.origin !== origin || !/\/embed\/events(\/|$)/.test(target.pathname)) return;
    fetch(target.href, { credentials: 'omit' })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        var doc = new DOMParser().parseFromString(html, 'text/html');
        var view = doc.querySelector('.cal');
        var sheet = doc.querySelector('link[rel="stylesheet"]');
        if (!view) throw new Error('no view');
        var root = host.shadowRoot || host.attachShadow({ mode: 'open' });
        root.textContent = '';
        if (sheet) {
          var link = document.createElement('link');
          link.rel = 'stylesheet';
          link.href = new URL(sheet.getAttribute('href'), target).href;
          root.appendChild(link);
        }
        var copy = document.importNode(view, true);
        copy.setAttribute('lang', doc.documentElement.getAttribute('lang') || '');
        root.appendChild(copy);
        copy.querySelectorAll('a[data-cal-nav]').forEach(function (a) {
          a.addEventListener('click', function (event) {
            event.preventDefault();
            render(host, a.href);
          });
        });
      })
      .catch(function () {
        fallback(host, target.href);
      });
  }

  document.querySelectorAll('[data-cal-embed]').forEach(function (host) {
    render(host, host.getAttribute('data-cal-embed') || '');
  });
})();
