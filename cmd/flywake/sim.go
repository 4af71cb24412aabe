package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/flywake/flywake/sources/flysim"
)

func newSimCmd(g *globalFlags) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "sim",
		Short: "Run only the embedded Fly platform, in the foreground",
		Long: `sim runs the embedded Fly platform on 127.0.0.1 until interrupted. Once the demo
apps are settled it prints the environment that points fly-go, flyctl, curl or
flywake at it, then one line per app edge:

  export FLY_FLAPS_BASE_URL=http://127.0.0.1:PORT
  export FLY_API_BASE_URL=http://127.0.0.1:PORT
  export FLY_UIEX_BASE_URL=http://127.0.0.1:PORT
  export FLY_API_TOKEN=…
  export FLY_ORG=demo-org
  edge sleepy-api http://127.0.0.1:PORT

Served: the Machines API (/v1: apps, machines, leases, exec, events, versions,
volumes and snapshots, secrets, regions); the logs API; Prometheus queries
(a PromQL subset); the part of Fly's GraphQL API that flyctl's status, apps
list/create/destroy/restart, orgs list, releases, volumes list, ips list,
image show, machine run/create/destroy/update --image, scale count, secrets
set/unset/deploy and deploy --image send, with the web API's organization,
build and release endpoints they call; and an edge per app.

Not served: other GraphQL fields and every GraphQL mutation (they answer an
error), SSH and WireGuard (fly ssh console, fly proxy, machine run --shell),
building images (deploy from source), IP address allocation, certificates,
Postgres and other extensions.`,
		Args: cobra.NoArgs,
		RunE: g.runE(command{
			name: "sim", cannotRun: 1, needs: noPlatform,
			run: func(ctx context.Context, cmd *cobra.Command, _ *platform) error {
				sim := flysim.New(flysim.Options{Addr: addr, Speed: g.speed, Seed: g.seed})
				if err := sim.Start(); err != nil {
					return err
				}
				defer sim.Close()
				out := cmd.OutOrStdout()
				fmt.Fprintf(out, "export FLY_FLAPS_BASE_URL=%s\n", sim.URL())
				fmt.Fprintf(out, "export FLY_API_BASE_URL=%s\n", sim.URL())
				fmt.Fprintf(out, "export FLY_UIEX_BASE_URL=%s\n", sim.URL())
				fmt.Fprintf(out, "export FLY_API_TOKEN=%s\n", sim.Token())
				fmt.Fprintf(out, "export FLY_ORG=%s\n", sim.Org())
				edges := sim.Edges()
				for _, app := range sim.Apps() {
					fmt.Fprintf(out, "edge %s %s\n", app, edges[app])
				}
				if f, ok := out.(*os.File); ok {
					_ = f.Sync()
				}
				// Until interrupted (SIGINT through the command's context, or SIGTERM).
				term := make(chan os.Signal, 1)
				signal.Notify(term, syscall.SIGTERM)
				defer signal.Stop(term)
				select {
				case <-term:
				case <-ctx.Done():
				}
				return nil
			},
		}),
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:0", "address for the Machines, logs and metrics APIs (loopback only)")
	return cmd
}
