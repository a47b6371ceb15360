// Run in headless Chromium after the routing map page's own script (test_routing_map_realistic.py
// appends it to a copy of the page, whose content security policy runs inline scripts): it
// measures the map, drives the page as a person does (filters, search, clicks on boxes found at
// their place on screen, Escape), and leaves what it saw as JSON on <body data-probe>.
(function () {
  var svg = document.querySelector("#map svg");
  var details = document.getElementById("details");
  var shown = document.getElementById("shown");
  var search = document.getElementById("search");
  function rect(element) {
    var r = element.getBoundingClientRect();
    return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
  }
  function texts(element) {
    return Array.prototype.map.call(element.querySelectorAll("text"), function (t) {
      return t.textContent.trim();
    }).filter(Boolean);
  }
  var boxes = [];
  svg.querySelectorAll("g.node").forEach(function (node) {
    var parts = node.classList.contains("dag")
      ? Array.prototype.filter.call(node.querySelectorAll('g[id^="a_"]'), function (row) {
          return row.id !== "a_" + node.id;
        })
      : [node];
    parts.forEach(function (part) {
      var words = texts(part);
      boxes.push({ id: part.id, title: words[0], rect: rect(part), text: words.join(" ") });
    });
  });
  var scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  var sizes = Array.prototype.map.call(svg.querySelectorAll("text"), function (t) {
    return parseFloat(t.getAttribute("font-size")) * scale;
  });
  function rows() {
    return Array.prototype.filter.call(document.querySelectorAll("#tasks tbody tr"), function (row) {
      return !row.hidden;
    }).map(function (row) { return row.cells[1].textContent + "." + row.cells[2].textContent; });
  }
  function find(title, containing) {
    return boxes.filter(function (each) {
      return each.title === title && each.text.indexOf(containing || "") >= 0;
    })[0];
  }
  function dim(title) {
    var element = document.getElementById(find(title).id);
    for (; element && element !== svg; element = element.parentNode) {
      if (element.classList.contains("dim")) { return true; }
    }
    return false;
  }
  function choose(id, text) {
    var select = document.getElementById(id);
    var option = Array.prototype.find.call(select.options, function (o) { return o.text === text; });
    select.value = option ? option.value : "";
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }
  function state(titles) {
    var seen = { shown: shown.textContent, rows: rows(), dim: {} };
    titles.forEach(function (title) { seen.dim[title] = dim(title); });
    return seen;
  }
  function clickAt(title, containing) {
    details.hidden = true;
    var r = document.getElementById(find(title, containing).id).getBoundingClientRect();
    var x = r.left + r.width / 2, y = r.top + r.height / 2;
    var hit = document.elementFromPoint(x, y);
    hit.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, clientX: x, clientY: y }));
    return {
      open: !details.hidden,
      heading: details.querySelector("h2") ? details.querySelector("h2").textContent : "",
      tasks: Array.prototype.map.call(details.querySelectorAll("button.task"), function (b) {
        return b.textContent;
      }),
      trace: details.querySelector("pre") ? details.querySelector("pre").textContent : ""
    };
  }
  var seen = {
    map: rect(svg),
    smallest: Math.min.apply(null, sizes),
    boxes: boxes,
    problems: Array.prototype.map.call(document.querySelectorAll("#problems li"), function (li) {
      return li.textContent;
    }),
    start: state(["etl", "gpu_batch"])
  };
  choose("place", "gpu_batch");
  seen.queue = state(["gpu_batch", "ml", "etl", "celery-etl", "celery-ml"]);
  choose("place", "all");
  choose("worker", "celery-reports");
  seen.worker = state(["reports", "exports", "etl", "reporting"]);
  choose("worker", "all");
  choose("problem", "any problem");
  seen.problem = state([]);
  choose("problem", "all");
  choose("dag", "s3_exports");
  seen.dag = state(["exports", "etl"]);
  choose("dag", "all");
  search.value = "train_shard_1";
  search.dispatchEvent(new Event("input", { bubbles: true }));
  seen.search = state([]);
  search.value = "";
  search.dispatchEvent(new Event("input", { bubbles: true }));
  seen.group = clickAt("8 tasks", "upload_orders");
  var first = details.querySelector("button.task");
  first.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  seen.trace = { heading: details.querySelector("h2").textContent, text: details.querySelector("pre").textContent };
  seen.queueClick = clickAt("gpu_batch");
  seen.single = clickAt("report");
  document.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
  seen.closed = details.hidden;
  var code = document.querySelector('#problems li.problem button');
  code.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
  seen.fromList = { problem: document.getElementById("problem").value, shown: shown.textContent };
  document.body.setAttribute("data-probe", JSON.stringify(seen));
})();
