//go:build !unix

package compile

import "os/exec"

// setProcessGroup: no process groups here; killGroup kills git itself.
func setProcessGroup(cmd *exec.Cmd) {}

// killGroup kills cmd's process.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
