// sitegen serve: reload this page when the site has been rebuilt.
// The preview server adds this script to the HTML it serves; built sites never contain it.
// The tag carries the build generation the page came from (data-generation). The server's
// event stream sends the current generation when it connects and after every build, failed
// ones included (so the error page appears, and goes away once a fix builds).
(() => {
  let shown = document.currentScript?.dataset.generation;
  const events = new EventSource("/__sitegen/events");
  events.addEventListener("message", (event) => {
    if (shown === undefined) {
      shown = event.data; // no generation on the tag: the first one announced is this page's
    } else if (event.data !== shown) {
      events.close();
      location.reload();
    }
  });
})();
