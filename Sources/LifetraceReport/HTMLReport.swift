import LifetraceAnalysis
import LifetraceCore
import LifetraceFormat

/// A self-contained HTML timeline of one or more analyzed traces: inline CSS, script and SVG, no network.
///
/// Trace data (scene ids, task names, markers: untrusted) travels as JSON in a `<script type=
/// "application/json">` element with `<`, `>` and `&` escaped, and the script only ever sets text, never
/// HTML, so no name can inject markup.
public enum HTMLReport {
    /// The whole page.
    public static func render(_ traces: [ReportedTrace], title: String = "lifetrace report") -> String {
        let data = MarkupEscaping.scriptSafe(ReportData.json(traces).jsonText)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="color-scheme" content="light dark">
            <title>\(MarkupEscaping.escape(title))</title>
            <style>\(style)</style>
            </head>
            <body data-status="loading">
            <header><h1>\(MarkupEscaping.escape(title))</h1>
            <p class="legend"><span class="sw s0"></span>active <span class="sw s1"></span>inactive
            <span class="sw s2"></span>background <span class="sw s3"></span>suspended
            <span class="sw s3 inferred"></span>suspended (inferred)\(serviceLegend(traces)) <span class="tri"></span>finding
            · scroll or +/− to zoom, drag or ←/→ to pan, 0 to reset</p>\(inputWarnings(traces))</header>
            <main id="report"></main>
            <div id="tip" role="tooltip" hidden></div>
            <script type="application/json" id="lifetrace-data">\(data)</script>
            <script>\(script)</script>
            </body>
            </html>

            """
    }

    /// The service lanes' states, for the legend of a page that has service lanes.
    static func serviceLegend(_ traces: [ReportedTrace]) -> String {
        guard traces.contains(where: { $0.timeline.lanes.contains(where: \.isService) }) else { return "" }
        return "\n· services: <span class=\"sw s4\"></span>starting <span class=\"sw s5\"></span>running "
            + "<span class=\"sw s6\"></span>stopping"
    }

    /// What reading the traces warned of (a truncated end), one paragraph each, for the page's top.
    static func inputWarnings(_ traces: [ReportedTrace]) -> String {
        traces.flatMap(\.result.inputWarnings).map { warning in
            "\n<p class=\"input-warning\" role=\"alert\">warning: \(MarkupEscaping.escape(warning.description))</p>"
        }.joined()
    }

    static let style = """
        :root{--bg:#fff;--fg:#1d1d1f;--muted:#6e6e73;--grid:#e5e5ea;--s0:#2e9d4f;--s1:#e0a800;--s2:#3b78d8;--s3:#9a9aa0;
        --s4:#c9a0dc;--s5:#2a9d8f;--s6:#e76f51;--task:#8e5bd8;--err:#d70015;--warn:#c46b00;--panel:#f5f5f7}
        @media (prefers-color-scheme:dark){:root{--bg:#1c1c1e;--fg:#f2f2f7;--muted:#a1a1a6;--grid:#3a3a3c;--s0:#30d158;
        --s1:#ffd60a;--s2:#64a0ff;--s3:#8e8e93;--s4:#d7b4ea;--s5:#40c9b8;--s6:#ff8a6b;--task:#bf8cff;--err:#ff453a;--warn:#ff9f0a;--panel:#2c2c2e}}
        body{margin:0;font:14px/1.45 -apple-system,system-ui,sans-serif;background:var(--bg);color:var(--fg)}
        header,main{padding:0 20px}h1{font-size:20px;margin:16px 0 4px}h2{font-size:16px;margin:24px 0 8px}
        .legend{color:var(--muted);margin:0 0 8px}.input-warning{color:var(--warn);font-weight:600;margin:0 0 8px}.sw{display:inline-block;width:12px;height:12px;margin:0 4px 0 10px;
        vertical-align:-1px;border-radius:2px}.s0{background:var(--s0)}.s1{background:var(--s1)}.s2{background:var(--s2)}
        .s3{background:var(--s3)}.s4{background:var(--s4)}.s5{background:var(--s5)}.s6{background:var(--s6)}.inferred{opacity:.45}
        .tri{display:inline-block;border:6px solid transparent;border-bottom:10px solid var(--err);margin:0 4px 0 10px}
        section.trace{border-top:1px solid var(--grid);padding-bottom:12px}
        .controls button{font:inherit;margin-right:6px;padding:2px 10px;border:1px solid var(--grid);border-radius:6px;
        background:var(--panel);color:var(--fg);cursor:pointer}
        svg.timeline{width:100%;display:block;background:var(--bg);border:1px solid var(--grid);border-radius:6px;
        cursor:grab;touch-action:none}svg.timeline:focus{outline:2px solid var(--s2)}
        svg text{fill:var(--fg);font-size:12px}svg .axis text{fill:var(--muted);font-size:11px}svg .axis line{stroke:var(--grid)}
        .mark{stroke:var(--fg);stroke-opacity:.55}.task{fill:var(--task);fill-opacity:.75}.task.open{fill:var(--err)}
        .finding{fill:var(--err);cursor:pointer}.finding.warning{fill:var(--warn)}
        table{border-collapse:collapse;margin:4px 0 8px}td,th{text-align:left;padding:3px 12px 3px 0;border-bottom:1px solid var(--grid)}
        th{color:var(--muted);font-weight:600}code,pre{font:12px ui-monospace,Menlo,monospace}
        pre{background:var(--panel);padding:8px;border-radius:6px;overflow:auto}
        .err{color:var(--err)}.warn{color:var(--warn)}a{color:var(--s2)}
        #tip{position:fixed;pointer-events:none;background:var(--panel);color:var(--fg);border:1px solid var(--grid);
        border-radius:6px;padding:6px 8px;font-size:12px;max-width:480px;white-space:pre-wrap;box-shadow:0 2px 8px #0003}
        """

    static let script = #"""
        (function(){
        "use strict";
        window.addEventListener("error",function(e){document.body.dataset.status="error: "+e.message;});
        var data=JSON.parse(document.getElementById("lifetrace-data").textContent);
        var NS="http://www.w3.org/2000/svg",STATES=["active","inactive","background","suspended","starting","running","stopping"];
        var root=document.getElementById("report"),tip=document.getElementById("tip");
        function el(tag,attrs,text,parent){var e=document.createElement(tag);for(var k in attrs)e.setAttribute(k,attrs[k]);
          if(text!=null)e.textContent=text;if(parent)parent.appendChild(e);return e;}
        function sv(tag,attrs,parent){var e=document.createElementNS(NS,tag);for(var k in attrs)e.setAttribute(k,attrs[k]);
          if(parent)parent.appendChild(e);return e;}
        function dur(ms){if(ms==null)return "";if(ms===0)return "0";var a=Math.abs(ms);if(a<1)return (ms*1000).toFixed(1)+"µs";
          if(a<1000)return ms.toFixed(1)+"ms";if(a<60000)return (ms/1000).toFixed(2)+"s";
          if(a<3600000)return Math.floor(ms/60000)+"m"+String(Math.floor(ms/1000)%60).padStart(2,"0")+"s";
          return Math.floor(ms/3600000)+"h"+String(Math.floor(ms/60000)%60).padStart(2,"0")+"m";}
        function show(ev,text){tip.textContent=text;tip.hidden=false;tip.style.left=Math.min(ev.clientX+12,innerWidth-490)+"px";
          tip.style.top=(ev.clientY+14)+"px";}
        function hide(){tip.hidden=true;}
        function summary(t,parent){
          var s=t.summary,v=s.service_times,table=el("table",{},null,parent),tr=el("tr",{},null,table);
          (v?["starting","running","stopping"]:["active","inactive","background","suspended ("+s.suspension_basis+")"]).concat(["errors","warnings","processes"])
            .forEach(function(h){el("th",{},h,tr);});
          tr=el("tr",{},null,table);(v?[dur(v.starting),dur(v.running),dur(v.stopping)]:[dur(s.active),dur(s.inactive),dur(s.background),dur(s.suspended)])
            .concat([s.errors,s.warnings,s.processes]).forEach(function(x){el("td",{},String(x),tr);});
          if(s.silent_exits){el("p",{},"Silent exits: "+s.silent_exits+". The lanes draw each such process suspended until the next launch.",parent);}
          var ends=Object.keys(s.ends);if(ends.length){el("p",{},"How processes ended: "+ends.map(function(k){return k+" "+s.ends[k];}).join(", "),parent);}
          if(s.longest.length){var p=el("p",{},"Longest handlers: ",parent);
            p.appendChild(document.createTextNode(s.longest.map(function(h){return h.name+(h.scene?" "+h.scene:"")+" "+dur(h.dur)+" (#"+h.index+")";}).join(", ")));}
        }
        function timeline(t,section,n){
          var LABEL=130,ROW=26,TOP=24,lanes=t.lanes,taskRows=t.tasks.length?1:0;
          var height=TOP+ROW*(lanes.length+taskRows)+8;
          var controls=el("div",{"class":"controls"},null,section);
          var svg=sv("svg",{"class":"timeline",tabindex:"0",role:"img","aria-label":"timeline of "+t.file,height:height},section);
          var view={a:0,b:Math.max(t.duration,1e-6)},width=1000;
          [["−","zoom out",function(){zoom(2,0.5);}],["+","zoom in",function(){zoom(0.5,0.5);}],["reset","reset zoom",function(){view.a=0;view.b=Math.max(t.duration,1e-6);draw();}]]
            .forEach(function(b){var x=el("button",{type:"button","aria-label":b[1]},b[0],controls);x.addEventListener("click",b[2]);});
          function zoom(f,at){var span=view.b-view.a,c=view.a+span*at,ns=Math.max(span*f,1e-3);
            view.a=c-ns*at;view.b=view.a+ns;draw();}
          function pan(f){var s=(view.b-view.a)*f;view.a+=s;view.b+=s;draw();}
          svg.addEventListener("wheel",function(e){e.preventDefault();var r=svg.getBoundingClientRect();
            var at=Math.min(Math.max((e.clientX-r.left-LABEL)/(r.width-LABEL),0),1);zoom(e.deltaY>0?1.25:0.8,at);},{passive:false});
          var drag=null;svg.addEventListener("pointerdown",function(e){drag={x:e.clientX,a:view.a,b:view.b};svg.setPointerCapture(e.pointerId);});
          svg.addEventListener("pointermove",function(e){if(!drag)return;var r=svg.getBoundingClientRect();
            var d=(e.clientX-drag.x)/(r.width-LABEL)*(drag.b-drag.a);view.a=drag.a-d;view.b=drag.b-d;draw();});
          svg.addEventListener("pointerup",function(){drag=null;});
          svg.addEventListener("keydown",function(e){var k=e.key;if(k==="+"||k==="=")zoom(0.5,0.5);else if(k==="-")zoom(2,0.5);
            else if(k==="ArrowLeft")pan(-0.2);else if(k==="ArrowRight")pan(0.2);else if(k==="0"){view.a=0;view.b=Math.max(t.duration,1e-6);draw();}else return;e.preventDefault();});
          var pending=false;function draw(){if(pending)return;pending=true;requestAnimationFrame(function(){pending=false;render();});}
          function render(){
            width=Math.max(svg.getBoundingClientRect().width||1000,400);svg.setAttribute("viewBox","0 0 "+width+" "+height);
            while(svg.firstChild)svg.removeChild(svg.firstChild);
            var W=width-LABEL-10,span=view.b-view.a;function X(ms){return LABEL+(ms-view.a)/span*W;}
            var axis=sv("g",{"class":"axis"},svg);
            for(var i=0;i<=8;i++){var x=LABEL+W*i/8;sv("line",{x1:x,x2:x,y1:TOP-4,y2:height,"stroke-width":1},axis);
              var lab=sv("text",{x:x+2,y:14},axis);lab.textContent=dur(view.a+span*i/8);}
            lanes.forEach(function(lane,row){
              var y=TOP+row*ROW,g=sv("g",{"class":"lane","data-lane":lane.name},svg);
              var name=sv("text",{x:4,y:y+16},g);name.textContent=lane.name;
              // Segments: those narrower than a pixel are gathered per pixel and drawn in the dominant state.
              var bucket=null;
              function flush(){if(!bucket)return;var best=0;for(var s=1;s<STATES.length;s++)if(bucket.w[s]>bucket.w[best])best=s;
                rect(bucket.x0,bucket.x1,best,false,bucket.n+" segments");bucket=null;}
              function rect(x0,x1,state,inferred,what){var r=sv("rect",{x:x0,y:y+3,width:Math.max(x1-x0,1),height:ROW-8,
                fill:"var(--s"+state+")","fill-opacity":inferred?0.45:0.85,"class":"segment","data-state":STATES[state]},g);
                r.addEventListener("mousemove",function(e){show(e,lane.name+": "+STATES[state]+(inferred?" (inferred)":"")+"\n"+what);});
                r.addEventListener("mouseleave",hide);}
              lane.segments.forEach(function(seg){if(seg[1]<view.a||seg[0]>view.b)return;
                var x0=Math.max(X(seg[0]),LABEL),x1=Math.min(X(seg[1]),LABEL+W);
                if(x1-x0<1){var px=Math.floor(x0);if(bucket&&bucket.px!==px)flush();
                  if(!bucket)bucket={px:px,x0:x0,x1:x1,w:STATES.map(function(){return 0;}),n:0};bucket.x1=x1;bucket.w[seg[2]]+=seg[1]-seg[0];bucket.n++;return;}
                flush();rect(x0,x1,seg[2],seg[3]&1,dur(seg[0])+" – "+dur(seg[1])+" ("+dur(seg[1]-seg[0])+")"+(seg[3]&2?" aggregated":""));});
              flush();
              var lastX=-10;lane.marks.forEach(function(m){if(m[0]<view.a||m[0]>view.b)return;var x=X(m[0]);
                if(x-lastX<2&&span>0)return;lastX=x;
                var w=m[1]!=null?Math.max(m[1]/span*W,1.5):1.5;
                var mk=sv("rect",{x:x,y:y+1,width:w,height:ROW-4,"class":"mark",fill:"none"},g);
                mk.addEventListener("mousemove",function(e){show(e,"#"+m[3]+" "+m[2]+"\nt="+dur(m[0])+(m[1]!=null?"  handler "+dur(m[1]):""));});
                mk.addEventListener("mouseleave",hide);});
              t.findings.forEach(function(f,fi){var match=lane.process?!f.scene:((lane.service?"service ":"scene ")+f.scene)===lane.name;
                if(lanes.length===1)match=true;if(!match||f.t<view.a||f.t>view.b)return;var x=X(f.t);
                var tr=sv("path",{d:"M"+x+" "+(y+ROW-4)+" l-6 10 l12 0 z","class":"finding "+f.severity},g);
                tr.addEventListener("mousemove",function(e){show(e,f.severity+" "+f.rule+": "+f.title+"\n"+f.message+"\n\n"+f.context.join("\n"));});
                tr.addEventListener("mouseleave",hide);tr.addEventListener("click",function(){location.hash="f"+n+"-"+fi;});});
            });
            if(taskRows){var y=TOP+lanes.length*ROW,g=sv("g",{"class":"lane","data-lane":"background tasks"},svg);
              var label=sv("text",{x:4,y:y+16},g);label.textContent="background tasks";
              t.tasks.forEach(function(task){var end=task.end!=null?task.end:t.duration;if(end<view.a||task.start>view.b)return;
                var x0=Math.max(X(task.start),LABEL),x1=Math.min(X(end),LABEL+W);
                var r=sv("rect",{x:x0,y:y+5,width:Math.max(x1-x0,1.5),height:ROW-12,"class":"task"+(task.ended?"":" open")},g);
                if(task.budget!=null){var bx=X(task.start+task.budget);if(bx>LABEL&&bx<LABEL+W)sv("line",{x1:bx,x2:bx,y1:y+2,y2:y+ROW-4,stroke:"var(--err)","stroke-dasharray":"2 2"},g);}
                r.addEventListener("mousemove",function(e){show(e,"task "+task.id+(task.name?" \""+task.name+"\"":"")+"\n"+dur(task.start)+" – "+
                  (task.ended?dur(task.end):(task.end!=null?dur(task.end)+", never ended (its process ended)":"never ended"))+(task.expired?"\nexpiration handler ran":"")+(task.budget!=null?"\nbudget "+dur(task.budget):""));});
                r.addEventListener("mouseleave",hide);});}
          }
          render();window.addEventListener("resize",draw);
        }
        function findings(t,section,n){
          if(!t.findings.length){el("p",{},"No findings.",section);return;}
          el("h3",{},"Findings",section);var list=el("ol",{},null,section);
          t.findings.forEach(function(f,fi){var li=el("li",{id:"f"+n+"-"+fi},null,list);
            el("span",{"class":f.severity==="error"?"err":"warn"},f.severity+" ",li);
            el("a",{href:"#rule-"+f.rule},f.rule,li);li.appendChild(document.createTextNode(" "+f.title+" — t="+dur(f.t)+", event #"+f.index+(f.scene?", scene "+f.scene:"")));
            el("div",{},f.message,li);el("pre",{},f.context.join("\n"),li);});
          el("h3",{},"Rules",section);t.rules.forEach(function(r){var d=el("div",{id:"rule-"+r.id},null,section);
            el("strong",{},r.id+" "+r.title,d);el("p",{},r.explanation,d);el("p",{},"Fix: "+r.fix,d);el("p",{"class":"legend"},"Source: "+r.source,d);});
        }
        if(data.traces.length>1){el("h2",{},"Comparison",root);var table=el("table",{},null,root),h=el("tr",{},null,table);
          ["trace","events","active","inactive","background","suspended","errors","warnings"].forEach(function(x){el("th",{},x,h);});
          data.traces.forEach(function(t){var r=el("tr",{},null,table),s=t.summary;
            [t.file,t.events,dur(s.active),dur(s.inactive),dur(s.background),dur(s.suspended),s.errors,s.warnings].forEach(function(v){el("td",{},String(v),r);});});}
        data.traces.forEach(function(t,n){var section=el("section",{"class":"trace"},null,root);
          el("h2",{},t.file+" — "+t.events+" events over "+dur(t.duration),section);summary(t,section);timeline(t,section,n);findings(t,section,n);});
        if(document.body.dataset.status==="loading")document.body.dataset.status="ok";
        })();
        """#
}
