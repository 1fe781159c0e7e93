// The offline page's Retry (public/offline.html): loads the address again, which the service
// worker sends to the network. A file of its own: the site's policy allows no inline script.
document.getElementById("retry").addEventListener("click", () => location.reload());
