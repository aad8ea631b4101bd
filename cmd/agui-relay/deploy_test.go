package main

import (
	"bytes"
	"debug/elf"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The deployment examples, checked without docker or a cluster: the
// Dockerfile's build command makes a static binary that knows its
// version; deploy/compose.yaml and deploy/kubernetes/*.yaml parse, set
// only variables of real flags, and a relay started with their settings
// answers the probes they wire.

// flagNames are the flags a binary lists in its -h.
func flagNames(t *testing.T, bin string) map[string]bool {
	t.Helper()
	out, _ := exec.Command(bin, "-h").CombinedOutput()
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`).FindAllStringSubmatch(string(out), -1) {
		names[m[1]] = true
	}
	if len(names) < 10 {
		t.Fatalf("%s -h lists %d flags: %s", bin, len(names), out)
	}
	return names
}

// checkEnv checks that every variable names a flag of the relay.
func checkEnv(t *testing.T, where string, env map[string]string, flags map[string]bool) {
	t.Helper()
	for k := range env {
		name := strings.ToLower(strings.ReplaceAll(strings.TrimPrefix(k, envPrefix), "_", "-"))
		if !strings.HasPrefix(k, envPrefix) || !flags[name] || envName(name) != k {
			t.Errorf("%s: %s is not the variable of a flag", where, k)
		}
	}
}

// checkDemoArgs starts the demo agent with a manifest's arguments.
func checkDemoArgs(t *testing.T, where string, args []string) *proc {
	t.Helper()
	_, demo := binaries(t)
	flags := flagNames(t, demo)
	for _, a := range args {
		if strings.HasPrefix(a, "-") && !flags[strings.TrimPrefix(a, "-")] {
			t.Fatalf("%s: the demo agent has no flag %s", where, a)
		}
	}
	return start(t, moduleRoot(t), demo, "agui-demo: open ", append(args, "-addr", "127.0.0.1:0")...)
}

// startWithEnv starts the relay with a manifest's variables, on loopback
// addresses, the memory store and upstream; it returns its admin URL.
func startWithEnv(t *testing.T, env map[string]string, upstream string) (main, admin string) {
	t.Helper()
	var vars []string
	for k, v := range env {
		switch k {
		case "AGUI_RELAY_ADDR", "AGUI_RELAY_STORE", "AGUI_RELAY_UPSTREAM":
			continue
		case "AGUI_RELAY_ADMIN_ADDR":
			v = "127.0.0.1:0"
		}
		vars = append(vars, k+"="+v)
	}
	vars = append(vars, "AGUI_RELAY_UPSTREAM="+upstream+"/agent")
	_, main, admin = opsRelay(t, vars)
	return main, admin
}

func TestDockerfile(t *testing.T) {
	root := moduleRoot(t)
	df, err := os.ReadFile(filepath.Join(root, "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	text := string(df)
	build := regexp.MustCompile(`(?m)^RUN (CGO_ENABLED=0 go build .* -o /out/agui-relay \./cmd/agui-relay)$`).FindStringSubmatch(text)
	if build == nil {
		t.Fatal("the Dockerfile has no RUN CGO_ENABLED=0 go build … -o /out/agui-relay ./cmd/agui-relay")
	}
	stages := regexp.MustCompile(`(?m)^FROM (\S+)(?: AS (\S+))?$`).FindAllStringSubmatch(text, -1)
	last := stages[len(stages)-1]
	if last[2] != "relay" || !strings.HasPrefix(last[1], "gcr.io/distroless/static") || !strings.HasSuffix(last[1], ":nonroot") {
		t.Errorf("the relay's stage (the default) is %v, not distroless static nonroot", last)
	}
	relayStage := text[strings.LastIndex(text, "FROM "):]
	if !strings.Contains(relayStage, "USER nonroot") || !strings.Contains(relayStage, `ENTRYPOINT ["/agui-relay"]`) {
		t.Error("the relay's stage does not run /agui-relay as nonroot")
	}

	// The build command as the Dockerfile has it, with the version set
	// as docker build --build-arg would.
	out := t.TempDir()
	cmdline := strings.ReplaceAll(build[1], "/out/", out+"/")
	sh := exec.Command("sh", "-c", cmdline)
	sh.Dir = root
	sh.Env = append(os.Environ(), "VERSION=v0.0.0-docker")
	if b, err := sh.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v %s", cmdline, err, b)
	}
	bin := filepath.Join(out, "agui-relay")
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatal("the binary is not static (it has an interpreter or a dynamic section)")
		}
	}
	if v, err := exec.Command(bin, "-version").Output(); err != nil || strings.TrimSpace(string(v)) != "agui-relay v0.0.0-docker" {
		t.Fatalf("-version: %q %v", v, err)
	}
}

func TestCompose(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "deploy", "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Services map[string]struct {
			Build       struct{ Target string }
			Command     []string
			Environment map[string]string
		}
	}
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	relayBin, _ := binaries(t)
	flags := flagNames(t, relayBin)
	relays := 0
	for name, s := range c.Services {
		if s.Build.Target != "relay" {
			continue
		}
		relays++
		checkEnv(t, name, s.Environment, flags)
		if s.Environment["AGUI_RELAY_UPSTREAM"] != "http://agent:8080/agent" || !strings.HasPrefix(s.Environment["AGUI_RELAY_STORE"], "redis://redis:6379/") {
			t.Errorf("%s: upstream %q, store %q", name, s.Environment["AGUI_RELAY_UPSTREAM"], s.Environment["AGUI_RELAY_STORE"])
		}
	}
	if relays != 2 || c.Services["redis"].Build.Target != "" || c.Services["agent"].Build.Target != "demo" {
		t.Fatalf("want two relays, redis and the demo agent: %+v", c.Services)
	}
	demo := checkDemoArgs(t, "compose agent", c.Services["agent"].Command)
	_, admin := startWithEnv(t, c.Services["relay-a"].Environment, demo.URL)
	for _, p := range []string{"/livez", "/readyz", "/metrics"} {
		if st, _ := getBody(t, admin+p); st != 200 {
			t.Errorf("compose relay-a admin %s: %d", p, st)
		}
	}
}

func TestKubernetes(t *testing.T) {
	dir := filepath.Join(moduleRoot(t), "deploy", "kubernetes")
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if len(files) < 3 {
		t.Fatalf("%d manifests in %s", len(files), dir)
	}
	type probe struct {
		HTTPGet *struct {
			Path string
			Port string
		} `yaml:"httpGet"`
	}
	type container struct {
		Name  string
		Image string
		Args  []string
		Env   []struct {
			Name      string
			Value     string
			ValueFrom any `yaml:"valueFrom"`
		}
		Ports []struct {
			Name          string
			ContainerPort int `yaml:"containerPort"`
		}
		LivenessProbe  *probe `yaml:"livenessProbe"`
		ReadinessProbe *probe `yaml:"readinessProbe"`
	}
	type doc struct {
		Kind     string
		Metadata struct{ Name string }
		Spec     struct {
			Template struct {
				Spec struct {
					TerminationGracePeriodSeconds int `yaml:"terminationGracePeriodSeconds"`
					SecurityContext               struct {
						RunAsNonRoot bool `yaml:"runAsNonRoot"`
					} `yaml:"securityContext"`
					Containers []container
				}
			}
		}
	}
	docs := map[string]doc{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(bytes.NewReader(b))
		for {
			var d doc
			if err := dec.Decode(&d); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if d.Kind == "" || d.Metadata.Name == "" {
				t.Fatalf("%s: a document without kind or name", f)
			}
			docs[d.Kind+"/"+d.Metadata.Name] = d
		}
	}
	for _, k := range []string{"Deployment/agui-relay", "Service/agui-relay", "PodDisruptionBudget/agui-relay",
		"StatefulSet/agui-redis", "Service/agui-redis", "Deployment/agui-agent", "Service/agui-agent"} {
		if _, ok := docs[k]; !ok {
			t.Errorf("no %s", k)
		}
	}
	d := docs["Deployment/agui-relay"]
	ps := d.Spec.Template.Spec
	if len(ps.Containers) != 1 || !ps.SecurityContext.RunAsNonRoot || ps.TerminationGracePeriodSeconds <= 20 {
		t.Fatalf("the relay's pod: %+v", ps)
	}
	c := ps.Containers[0]
	env := map[string]string{}
	for _, e := range c.Env {
		if e.ValueFrom != nil {
			e.Value = "from-the-pod"
		}
		env[e.Name] = e.Value
	}
	relayBin, _ := binaries(t)
	checkEnv(t, "relay.yaml", env, flagNames(t, relayBin))
	ports := map[string]int{}
	for _, p := range c.Ports {
		ports[p.Name] = p.ContainerPort
	}
	if ports["admin"] != 9090 || env["AGUI_RELAY_ADMIN_ADDR"] != ":9090" || ports["http"] != 8090 || env["AGUI_RELAY_ADDR"] != ":8090" {
		t.Fatalf("ports %v, addresses %q %q", ports, env["AGUI_RELAY_ADDR"], env["AGUI_RELAY_ADMIN_ADDR"])
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil || c.LivenessProbe.HTTPGet.Path != "/livez" ||
		c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" ||
		c.LivenessProbe.HTTPGet.Port != "admin" || c.ReadinessProbe.HTTPGet.Port != "admin" {
		t.Fatalf("probes: %+v %+v", c.LivenessProbe, c.ReadinessProbe)
	}
	agent := docs["Deployment/agui-agent"].Spec.Template.Spec.Containers[0]
	demo := checkDemoArgs(t, "agent.yaml", agent.Args)
	_, admin := startWithEnv(t, env, demo.URL)
	for _, p := range []string{c.LivenessProbe.HTTPGet.Path, c.ReadinessProbe.HTTPGet.Path} {
		if st, b := getBody(t, admin+p); st != 200 {
			t.Errorf("the probe %s on the admin port: %d %s", p, st, b)
		}
	}
}
