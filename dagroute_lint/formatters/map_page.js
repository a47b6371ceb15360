// The routing map page's script (html.py inlines it): filters and search dim what they leave
// out on the map and hide it in the table; a click shows the tasks behind a box and each
// task's trace; the table sorts by the clicked column. It reads the JSON of #map-data (the
// tasks with their filter keys and traces; the SVG's nodes, edges and DAG boxes by id, with
// the indexes of their tasks) and fetches nothing.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("map-data").textContent);
  var tasks = data.tasks;
  var filters = ["dag", "place", "worker", "problem"].map(function (id) {
    return document.getElementById(id);
  });
  var search = document.getElementById("search");
  var shown = document.getElementById("shown");
  var details = document.getElementById("details");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#tasks tbody tr"));
  var dagTasks = {};
  Object.keys(data.dags).forEach(function (id) {
    var key = "dag:" + data.dags[id];
    dagTasks[id] = tasks
      .map(function (task, index) { return task.keys.indexOf(key) >= 0 ? index : -1; })
      .filter(function (index) { return index >= 0; });
  });

  // Graphviz writes a node's id on its group, and a table cell's (a task group of a DAG's
  // box) on the link it wraps the cell in, as "a_" + id.
  function drawn(id) {
    return document.getElementById(id) || document.getElementById("a_" + id);
  }

  function matching() {
    var wanted = filters.map(function (select) { return select.value; }).filter(Boolean);
    var text = search.value.trim().toLowerCase();
    var found = new Set();
    tasks.forEach(function (task, index) {
      var kept = wanted.every(function (key) { return task.keys.indexOf(key) >= 0; });
      if (kept && (!text || task.name.toLowerCase().indexOf(text) >= 0)) {
        found.add(index);
      }
    });
    return found;
  }

  function dim(id, indexes, found, everything) {
    var element = drawn(id);
    if (element) {
      var kept = everything || indexes.some(function (index) { return found.has(index); });
      element.classList.toggle("dim", !kept);
    }
  }

  function update() {
    var found = matching();
    var everything = found.size === tasks.length;
    Object.keys(data.nodes).forEach(function (id) {
      dim(id, data.nodes[id].tasks, found, everything);
    });
    Object.keys(data.edges).forEach(function (id) {
      dim(id, data.edges[id], found, everything);
    });
    Object.keys(data.dags).forEach(function (id) {
      dim(id, dagTasks[id], found, everything);
    });
    rows.forEach(function (row) { row.hidden = !found.has(Number(row.dataset.task)); });
    shown.textContent = found.size + " of " + tasks.length + " tasks";
  }

  function open(title) {
    details.textContent = "";
    var close = document.createElement("button");
    close.className = "close";
    close.textContent = "close";
    close.addEventListener("click", function () { details.hidden = true; });
    var heading = document.createElement("h2");
    heading.textContent = title;
    details.append(close, heading);
    details.hidden = false;
    return details;
  }

  function text(panel, content) {
    var pre = document.createElement("pre");
    pre.textContent = content;
    panel.append(pre);
  }

  function showTask(index) {
    var task = tasks[index];
    text(open(task.name), task.trace);
  }

  function showTasks(title, about, indexes) {
    if (indexes.length === 1) {
      showTask(indexes[0]);
      return;
    }
    var panel = open(title);
    if (about) { text(panel, about); }
    var list = document.createElement("ul");
    indexes.forEach(function (index) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.className = "task";
      button.dataset.task = String(index);
      button.textContent = tasks[index].name;
      item.append(button);
      list.append(item);
    });
    panel.append(list);
  }

  document.getElementById("map").addEventListener("click", function (event) {
    for (var element = event.target; element && element.id !== "map"; element = element.parentNode) {
      var id = (element.id || "").replace(/^a_/, "");
      if (data.nodes[id]) {
        event.preventDefault();
        var node = data.nodes[id];
        showTasks(node.title, node.text, node.tasks);
        return;
      }
      if (data.dags[id]) {
        event.preventDefault();
        filters[0].value = "dag:" + data.dags[id];
        update();
        showTasks(data.dags[id], "", dagTasks[id]);
        return;
      }
      if (data.edges[id]) {
        event.preventDefault();
        showTasks("tasks along this arrow", "", data.edges[id]);
        return;
      }
    }
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button") : null;
    if (!button) { return; }
    if (button.dataset.task !== undefined) {
      showTask(Number(button.dataset.task));
    } else if (button.dataset.filter !== undefined) {
      filters[3].value = button.dataset.filter;
      update();
      document.getElementById("filters").scrollIntoView();
    }
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { details.hidden = true; }
  });
  filters.forEach(function (select) { select.addEventListener("change", update); });
  search.addEventListener("input", update);

  // Sorts the table by the clicked column, numbers as numbers; a second click reverses.
  document.querySelectorAll("#tasks th button").forEach(function (button, column) {
    button.addEventListener("click", function () {
      var header = button.parentElement;
      var ascending = header.getAttribute("aria-sort") !== "ascending";
      document.querySelectorAll("#tasks th").forEach(function (th) {
        th.removeAttribute("aria-sort");
      });
      header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var body = document.querySelector("#tasks tbody");
      var sorted = Array.prototype.slice.call(body.rows);
      sorted.sort(function (a, b) {
        var x = a.cells[column].dataset.key, y = b.cells[column].dataset.key;
        var order = (isNaN(x) || isNaN(y) || x === "" || y === "")
          ? x.localeCompare(y) : Number(x) - Number(y);
        return ascending ? order : -order;
      });
      sorted.forEach(function (row) { body.appendChild(row); });
    });
  });

  update();
})();
