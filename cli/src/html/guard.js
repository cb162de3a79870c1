// Every error the page meets is shown in #errors and counted on <body>
// (data-errors), so that a test that reads the DOM sees it.
(function () {
  var count = 0;
  function report(text) {
    count += 1;
    document.documentElement.setAttribute('data-errors', String(count));
    var box = document.getElementById('errors');
    if (box) {
      box.hidden = false;
      box.textContent += text + '\n';
    }
  }
  window.addEventListener('error', function (e) {
    report('error: ' + (e.message || e.type) + (e.lineno ? ' (line ' + e.lineno + ')' : ''));
  });
  window.addEventListener('unhandledrejection', function (e) {
    report('unhandled rejection: ' + e.reason);
  });
  document.addEventListener('securitypolicyviolation', function (e) {
    report('blocked by the page\'s policy: ' + e.violatedDirective + ' ' + e.blockedURI);
  });
  var original = console.error;
  console.error = function () {
    report('console.error: ' + Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
