/// The inspector's stylesheet (after the coach's, whose look it shares) and its one script. The
/// pages work without the script: it only makes the arrow keys step the As-of view and the slider
/// move as it is dragged, by following the links and the form the page already has, and loads a
/// chosen rule file into the Rules form (which takes the file's text pasted without it).
enum InspectorAssets {
    static let css = """
        .tabs{display:flex;gap:16px}.tabs a{font-weight:500}.pager{display:flex;gap:14px;margin:10px 0;flex-wrap:wrap}.pager a,.pager span{padding:4px 0}
        .filters{display:grid;grid-template-columns:repeat(4,1fr);gap:0 12px;align-items:end}.filters button{grid-column:1/-1;justify-self:start}
        .events code{white-space:pre-wrap;word-break:break-all;font-size:12px}.counts meter{width:100%}.counts td{padding:3px 8px}
        .change{font-weight:600}.steps{list-style:none;padding:0}.diff td{font-size:12px;padding:3px 6px}del{color:#b3261e}ins{color:#2e7d32;text-decoration:none}
        .proof.ok{border-left:4px solid #2e7d32}.proof.bad{border-left:4px solid #b3261e}a[data-why]{text-decoration:underline dotted}
        .slider input{padding:0}textarea{font:12px/1.4 ui-monospace,Menlo,monospace}
        .top{gap:12px;flex-wrap:wrap}.top .reader{margin-left:auto;font-size:13px}.top .sign-out{margin:0}.top .sign-out button{padding:2px 10px;font-size:13px}
        @media (max-width:640px){.filters{grid-template-columns:1fr 1fr}.events td:nth-child(6),.events th:nth-child(6){display:none}
        .tabs{gap:10px;font-size:13px}main{padding:16px 12px 30px}}
        """

    static let script = """
        "use strict";
        document.addEventListener("keydown", function (e) {
          if (e.altKey || e.ctrlKey || e.metaKey || e.target.closest("input, select, textarea")) return;
          var id = e.key === "ArrowLeft" ? "previous" : e.key === "ArrowRight" ? "next" : null;
          var link = id && document.getElementById(id);
          if (link) { e.preventDefault(); window.location.assign(link.href); }
        });
        document.addEventListener("change", function (e) {
          if (e.target.id === "position" && e.target.form) e.target.form.submit();
          if (e.target.id === "rules-file" && e.target.files.length) {
            e.target.files[0].text().then(function (text) { document.getElementById("rules").value = text; });
          }
        });
        """
}
