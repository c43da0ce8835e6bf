"""boardreader: read carrom, crokinole and couronne boards from an overhead camera and keep the score."""

__version__ = "0.1.0"
