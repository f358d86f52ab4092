import MagpieGTK

GTKMainLoop.install()
