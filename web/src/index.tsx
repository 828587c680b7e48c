// Entry point: mounts the app.
import { render } from "solid-js/web";
import { App } from "./App";
import "./styles/base.css";
import "./styles/providers.css";
import "./styles/reach.css";

render(() => <App />, document.getElementById("app")!);
