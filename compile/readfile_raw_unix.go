//go:build unix

package compile

import "syscall"

// readRegularRaw is the common case of readFileInto with raw system calls:
// open (O_NONBLOCK, close-on-exec), fstat, read, close — without an
// os.File, whose open also registers the descriptor with the runtime's
// poller (an epoll_ctl the kernel refuses for a regular file), sets a
// cleanup and allocates. It takes the same decisions as the os path: the
// opened file must be regular and at most limit bytes, the buffer is the
// size fstat gave plus one byte (carved from blocks when given), and a
// read short of it at that size is the end.
//
// ok is false whenever the path is anything but a regular file read to
// its end within the limit — an error from any call, not a regular file,
// too large, grown past the limit while read: the caller then reads the
// file again through os, which gives the same refusals and errors as
// ever (a second open on a path that was refused, bounded as the first).
func readRegularRaw(path string, limit int64, blocks *Blocks) (data []byte, ok bool) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, false
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	for {
		err = syscall.Fstat(fd, &st)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > limit {
		return nil, false
	}
	size := int(st.Size) + 1
	if blocks != nil {
		data = blocks.bytes.take(size, byteBlock)[:0]
	} else {
		data = make([]byte, 0, size)
	}
	for {
		if len(data) == cap(data) {
			return nil, false // grew meanwhile: the os path reads it
		}
		want := cap(data) - len(data)
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n < 0 {
			return nil, false
		}
		data = data[:len(data)+n]
		if n == 0 || (n < want && int64(len(data)) == st.Size) {
			break // the end, or short of the buffer at the size fstat gave
		}
	}
	if int64(len(data)) > limit {
		return nil, false
	}
	return data, true
}
